#!/usr/bin/env bash
# Compiles prog.c (revision 0) and each diff of patches.txt applied alone
# to a copy of it, runs every file of inputs/ on stdin, and prints per
# revision a hash of all its outputs (exit status and stdout on every
# input), how many inputs it gets right against reference.c (same stdout
# and exit status), the inputs it gets wrong, and then the classes of
# revisions that behave identically on every input.
#
#   verify.sh            (needs gcc and patch; writes only under a new mktemp directory)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/intro-triage.XXXXXX")
trap 'rm -rf "$work"' EXIT
mapfile -t patches < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$here/patches.txt")
inputs=("$here"/inputs/*)

# Runs binary $1 on every input; writes one line per input: name status stdout-hash.
run_all() {
  local input rc
  for input in "${inputs[@]}"; do
    rc=0
    timeout 5 "$1" < "$input" > "$work/out" 2> /dev/null || rc=$?
    echo "$(basename "$input") $rc $(sha256sum < "$work/out" | cut -c1-12)"
  done
}

gcc -O0 -o "$work/reference" "$here/reference.c"
run_all "$work/reference" > "$work/expected"

printf '%-4s %-32s %-8s %-12s %-5s %s\n' rev diff truth outputs pass "wrong on"
: > "$work/summary"
for rev in $(seq 0 ${#patches[@]}); do
  dir="$work/rev$rev"
  mkdir "$dir"
  cp "$here/prog.c" "$dir/prog.c"
  name=original
  if [ "$rev" -gt 0 ]; then
    name=${patches[rev-1]}
    patch -s -p1 --batch -d "$dir" < "$here/$name"
  fi
  gcc -O0 -o "$dir/prog" "$dir/prog.c"
  run_all "$dir/prog" > "$dir/observed"
  digest=$(sha256sum < "$dir/observed" | cut -c1-12)
  pass=$(paste -d' ' "$work/expected" "$dir/observed" | awk '$2 == $5 && $3 == $6' | wc -l)
  failing=$(paste -d' ' "$work/expected" "$dir/observed" | awk '$2 != $5 || $3 != $6 { sub(/\.txt$/, "", $1); print $1 }' | tr '\n' ' ')
  truth=$(awk -v r="$rev" '$1 == r { print $2 }' "$here/truth.txt")
  printf '%-4s %-32s %-8s %-12s %2s/%-2s %s\n' "$rev" "$(basename "$name")" "${truth:--}" "$digest" "$pass" "${#inputs[@]}" "${failing:--}"
  echo "$digest $rev" >> "$work/summary"
done

echo
echo "classes (revisions with identical outputs on every input):"
sort -k2,2n "$work/summary" | awk '{ if (!($1 in c)) order[++n] = $1; c[$1] = c[$1] " " $2 }
  END { for (i = 1; i <= n; i++) print " " c[order[i]] }'
