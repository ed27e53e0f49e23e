#!/usr/bin/env bash
# Obtain pristine gzip 1.12 sources, weft's reference program.
#
#   scripts/fetch-gzip.sh [DEST]            # from Debian's source package (default)
#   scripts/fetch-gzip.sh DEST TARBALL      # from a gzip-1.12.tar.{gz,xz} you provide
#
# DEST defaults to third_party/gzip-1.12 (ignored by git). The tree is the
# upstream release as shipped: Debian's own patches are NOT applied, so the
# sources are exactly those of gzip 1.12. Re-running is a no-op once DEST exists.
# The work is scripts/fetch-debian-source.sh's (Debian bookworm ships gzip
# 1.12-1, whose orig tarball is the upstream release).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$here/third_party/gzip-1.12}
exec "$here/scripts/fetch-debian-source.sh" gzip 1.12-1 configure "$dest" ${2:+"$2"}
