#!/usr/bin/env bash
# The cost of a Siemens study (examples/siemens) beside a bare fork+exec
# driver running the same runs:
#
#   scripts/bench-siemens.sh [PROGRAM] [EVERY] [JOBS]    (default replace 20 2)
#
# Needs target/release/weft (or WEFT=...), gcc, python3, and the Siemens
# archives (SIEMENS=..., default ../shared/benchmarks/siemens beside the
# checkout). Prepares PROGRAM's study with every EVERY-th test of its plan in
# a temporary directory, then prints
#  1. the study from scratch with -j JOBS (builds, runs, scoring, report):
#     wall, and CPU (user + system, children included);
#  2. the bare driver: every run the study made (each build of each arm,
#     each test), as fork+exec+wait of the built program with the same
#     arguments, standard input, input files and environment (monitored
#     builds write their records into a directory per worker, emptied
#     between runs), JOBS at a time: wall and CPU, and the ratio;
#  3. what the study left on disk: files and MB under work/ and report/.
# KEEP_REPORT=DIR copies the study's report/ there (to compare two builds'
# tables on the same study and seed).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
weft=${WEFT:-$here/target/release/weft}
siemens=${SIEMENS:-$here/../shared/benchmarks/siemens}
program=${1:-replace}
every=${2:-20}
jobs=${3:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 "$here/examples/siemens/prepare.py" "$program" --benchmarks "$siemens" --every "$every" \
    --out "$dir" > "$dir/prepare.out"
cat "$dir/prepare.out"
study=$dir/$program/study.toml

cpu() { # FILE of /usr/bin/time -f '%e %U %S': "wall s, CPU s"
    awk '{ printf "%.1f s wall, %.1f s CPU (user %.1f + system %.1f)", $1, $2 + $3, $2, $3 }' "$1"
}

/usr/bin/time -f '%e %U %S' -o "$dir/study.time" "$weft" experiment -j "$jobs" "$study" \
    > "$dir/study.out" 2> "$dir/study.err" || { tail -20 "$dir/study.err"; exit 1; }
grep -E '^builds:' "$dir/study.err" || true
echo "study: $(cpu "$dir/study.time")"

/usr/bin/time -f '%e %U %S' -o "$dir/bare.time" \
    python3 "$here/scripts/bare-driver.py" "$study" "$jobs" > "$dir/bare.out"
cat "$dir/bare.out"
echo "bare driver: $(cpu "$dir/bare.time")"
awk 'NR == FNR { s = $2 + $3; next } { b = $2 + $3 } END { printf "study / bare driver, CPU: %.2f x\n", s / b }' \
    "$dir/study.time" "$dir/bare.time"

files=$(find "$dir/$program/work" "$dir/$program/report" -type f | wc -l)
mb=$(du -sk "$dir/$program/work" "$dir/$program/report" | awk '{ s += $1 } END { print s / 1000 }')
echo "on disk: $files files, $mb MB (work/ and report/)"
[ -z "${KEEP_REPORT:-}" ] || cp -a "$dir/$program/report" "$KEEP_REPORT"
