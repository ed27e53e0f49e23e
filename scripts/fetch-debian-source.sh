#!/usr/bin/env bash
# Obtain the pristine upstream sources of a Debian source package.
#
#   scripts/fetch-debian-source.sh PACKAGE VERSION MARKER DEST [TARBALL]
#
# PACKAGE and VERSION name the source package as Debian does (gzip 1.12-1,
# dcraw 9.28-3). MARKER is a file of the tree, relative to its top, that
# names the upstream version (gzip's configure, dcraw's dcraw.c; a repack
# suffix such as .dfsg is not looked for): it finds
# the tree inside the tarball and proves the tree is the right release.
# DEST receives the tree. The sources are the upstream release as Debian
# ships it (its .orig tarball): Debian's own patches are NOT applied.
# With TARBALL, that tarball is unpacked instead of asking apt.
#
# Re-running is a no-op once DEST holds the release; a DEST holding
# anything else is never replaced. apt-get source needs root (it may add a
# deb-src entry) and Debian's archive.
set -euo pipefail

if [ $# -lt 4 ] || [ $# -gt 5 ]; then
  echo "usage: fetch-debian-source.sh PACKAGE VERSION MARKER DEST [TARBALL]" >&2
  exit 2
fi
package=$1 version=$2 marker=$3 dest=$4 tarball=${5:-}
me="fetch-debian-source ($package)"
# Debian version [EPOCH:]UPSTREAM[-REVISION] → UPSTREAM.
upstream=${version#*:}
upstream=${upstream%-*}
# A tarball Debian repacked (zlib 1.2.13.dfsg) names its release without
# the repack suffix.
release=$(printf '%s' "$upstream" | sed -E 's/[.+~](dfsg|ds)[0-9.]*$//')

is_release() { grep -qsF "$release" "$1/$marker"; }

if [ -f "$dest/$marker" ]; then
  if is_release "$dest"; then
    echo "$me: $package $upstream already present in $dest" >&2
    exit 0
  fi
  echo "$me: $dest holds a $marker that does not name $upstream; remove it or give another DEST" >&2
  exit 1
fi
# Never replace what is there: a DEST that exists must be empty.
if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null || echo file)" ]; then
  echo "$me: $dest exists and is not a $package $upstream tree; remove it or give another DEST" >&2
  exit 1
fi

work=$(mktemp -d)
chmod 755 "$work"  # apt fetches as the _apt user
trap 'rm -rf "$work"' EXIT

# Makes apt-get source possible: a deb-src entry mirroring the deb ones.
enable_deb_src() {
  if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ || grep -qs '^deb-src' /etc/apt/sources.list; then
    return
  fi
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      > /etc/apt/sources.list.d/weft-deb-src.sources
  else
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/weft-deb-src.list
  fi
}

if [ -z "$tarball" ]; then
  enable_deb_src
  echo "$me: downloading Debian's source package $package $version (apt-get; needs root)" >&2
  apt-get update -qq >/dev/null
  # apt checks each file against the archive's checksums as it fetches it.
  # Only the upstream tarball is used, so a packaging file that cannot be
  # had does not stop the fetch (the tarball is then still verified).
  if ! (cd "$work" && apt-get source --download-only -qq "$package=$version" >"$work/apt.log" 2>&1); then
    if ls "$work/${package}_$upstream.orig.tar."* >/dev/null 2>&1; then
      echo "$me: apt-get could not fetch all of the source package; its upstream tarball was fetched and is used:" >&2
      grep '^E:' "$work/apt.log" | head -n 3 >&2 || true
    else
      cat "$work/apt.log" >&2
      echo "$me: apt-get source $package=$version failed" >&2
      exit 1
    fi
  fi
  tarball=$(ls "$work/${package}_$upstream.orig.tar."* | head -n 1)
fi

mkdir -p "$work/x"
tar -xf "$tarball" -C "$work/x"
# The tree is the directory holding MARKER, at the top of the tarball or
# one level down (the usual PACKAGE-VERSION/).
depth=$(( $(printf '%s' "$marker" | tr -cd / | wc -c) + 2 ))
found=$(find "$work/x" -maxdepth "$depth" -path "*/$marker" | head -n 1)
[ -n "$found" ] || { echo "$me: no $marker in $tarball" >&2; exit 1; }
src=${found%/"$marker"}
is_release "$src" || { echo "$me: $tarball is not $package $upstream ($marker does not name it)" >&2; exit 1; }
echo "$me: unpacking into $dest" >&2
mkdir -p "$(dirname "$dest")"
rmdir "$dest" 2>/dev/null || true
cp -a "$src" "$dest"
echo "$me: $package $upstream sources in $dest" >&2
