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
#     wall, and CPU (user + system, children included), and what it left on
#     disk: files and MB under work/ and report/;
#  2. the bare driver: every run the study made (each build of each arm,
#     each test), as fork+exec+wait of the built program with the same
#     arguments, standard input, input files and environment (monitored
#     builds write their records into a directory per worker, emptied
#     between runs), JOBS at a time: wall and CPU, and the ratio.
# KEEP_REPORT=DIR copies the study's report/ there (to compare two builds'
# tables on the same study and seed). BEFORE=WEFT also runs the same study
# (a copy, from scratch) with another weft executable first, side by side:
# its figures, its ratio to the same bare driver, and whether the two
# report.json results are identical (else the keys that differ).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
weft=${WEFT:-$here/target/release/weft}
siemens=${SIEMENS:-$here/../shared/benchmarks/siemens}
program=${1:-replace}
every=${2:-20}
jobs=${3:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cpu() { # FILE of /usr/bin/time -f '%e %U %S': "wall s, CPU s"
    awk '{ printf "%.1f s wall, %.1f s CPU (user %.1f + system %.1f)", $1, $2 + $3, $2, $3 }' "$1"
}

# study LABEL WEFT: prepares a fresh copy of the study under $dir/LABEL and
# runs it from scratch; prints its time and what it left on disk.
study() {
    local out=$dir/$1
    mkdir -p "$out"
    # The strategies of the figures in docs/benchmarks.md, whatever prepare.py's default.
    python3 "$here/examples/siemens/prepare.py" "$program" --benchmarks "$siemens" --every "$every" \
        --strategies INV INV_h INV_t INV_b INV_hu ASCV3 \
        --out "$out" > "$out/prepare.out"
    [ "$1" != after ] || cat "$out/prepare.out"
    /usr/bin/time -f '%e %U %S' -o "$out/study.time" "$2" experiment -j "$jobs" "$out/$program/study.toml" \
        > "$out/study.out" 2> "$out/study.err" || { tail -20 "$out/study.err"; exit 1; }
    grep -E '^builds:' "$out/study.err" | sed "s/^/$1 /" || true
    echo "$1 study: $(cpu "$out/study.time")"
    local files mb
    files=$(find "$out/$program/work" "$out/$program/report" -type f | wc -l)
    mb=$(du -sk "$out/$program/work" "$out/$program/report" | awk '{ s += $1 } END { print s / 1000 }')
    echo "$1 on disk: $files files, $mb MB (work/ and report/)"
}

[ -z "${BEFORE:-}" ] || study before "$BEFORE"
study after "$weft"
/usr/bin/time -f '%e %U %S' -o "$dir/bare.time" \
    python3 "$here/scripts/bare-driver.py" "$dir/after/$program/study.toml" "$jobs" > "$dir/bare.out"
cat "$dir/bare.out"
echo "bare driver: $(cpu "$dir/bare.time")"
for label in before after; do
    [ -f "$dir/$label/study.time" ] || continue
    awk -v l="$label" 'NR == FNR { s = $2 + $3; next } { b = $2 + $3 } END { printf "%s study / bare driver, CPU: %.2f x\n", l, s / b }' \
        "$dir/$label/study.time" "$dir/bare.time"
done
if [ -n "${BEFORE:-}" ]; then
    python3 - "$dir/before/$program/report/report.json" "$dir/after/$program/report/report.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["results"] for f in sys.argv[1:])
differ = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
print("report.json results: " + ("identical" if not differ else "differ in " + ", ".join(differ)))
PY
fi
[ -z "${KEEP_REPORT:-}" ] || cp -a "$dir/after/$program/report" "$KEEP_REPORT"
[ -z "${KEEP_REPORT:-}" ] || [ -z "${BEFORE:-}" ] || cp -a "$dir/before/$program/report" "$KEEP_REPORT.before"
