#!/usr/bin/env bash
# Obtain pristine gzip 1.12 sources, weft's reference program.
#
#   scripts/fetch-gzip.sh [DEST]            # from Debian's source package (default)
#   scripts/fetch-gzip.sh DEST TARBALL      # from a gzip-1.12.tar.{gz,xz} you provide
#
# DEST defaults to third_party/gzip-1.12 (ignored by git). The tree is the
# upstream release as shipped: Debian's own patches are NOT applied, so the
# sources are exactly those of gzip 1.12. Re-running is a no-op once DEST exists.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$here/third_party/gzip-1.12}
tarball=${2:-}

if [ -f "$dest/gzip.c" ]; then
  echo "fetch-gzip: gzip 1.12 already present in $dest" >&2
  exit 0
fi
# Never replace what is there: a DEST that exists must be empty.
if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null || echo file)" ]; then
  echo "fetch-gzip: $dest exists and is not a gzip 1.12 tree; remove it or give another DEST" >&2
  exit 1
fi

work=$(mktemp -d)
chmod 755 "$work"  # apt fetches as the _apt user
trap 'rm -rf "$work"' EXIT

if [ -z "$tarball" ]; then
  # Debian bookworm ships gzip 1.12; its orig tarball is the upstream release.
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        > /etc/apt/sources.list.d/weft-deb-src.sources
    else
      sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/weft-deb-src.list
    fi
  fi
  echo "fetch-gzip: downloading Debian's source package of gzip 1.12 (apt-get; needs root)" >&2
  apt-get update -qq >/dev/null
  (cd "$work" && apt-get source --download-only -qq gzip=1.12-1 >/dev/null)
  tarball=$(ls "$work"/gzip_1.12.orig.tar.* | head -n 1)
fi

mkdir -p "$work/x"
tar -xf "$tarball" -C "$work/x"
src=$(find "$work/x" -maxdepth 2 -name gzip.c -printf '%h\n' | head -n 1)
[ -n "$src" ] || { echo "fetch-gzip: no gzip.c in $tarball" >&2; exit 1; }
grep -q '1\.12' "$src/configure" || { echo "fetch-gzip: $tarball is not gzip 1.12" >&2; exit 1; }
echo "fetch-gzip: unpacking into $dest" >&2
mkdir -p "$(dirname "$dest")"
rmdir "$dest" 2>/dev/null || true
cp -a "$src" "$dest"
echo "fetch-gzip: gzip 1.12 sources in $dest" >&2
