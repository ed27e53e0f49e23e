#!/usr/bin/env bash
# Measures `weft experiment`'s per-run overhead: a study of N trivial tests
# (`true`) on the tiny fixture program, two versions, no strategy, so that
# nearly all the time is the harness's own (spawn, limits, records, keys).
#   scripts/bench-experiment.sh [N] [REPEATS]
# (needs target/debug/weft or WEFT=...). Prints, over REPEATS timings of the
# runs-only execution, the fastest and the median wall clock per run (2
# jobs), and the CPU time (user + system, children included) per run, which
# a loaded machine disturbs less than wall clock.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
weft=${WEFT:-$here/target/debug/weft}
n=${1:-300}
repeats=${2:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -a "$here/tests/fixtures/experiment/tiny/." "$dir"
sed -i '/^\[\[strategy\]\]/,$d' "$dir/study.toml"
for i in $(seq "$n"); do printf '[[test]]\nname = "t%d"\ncmd = "true"\n' "$i"; done >> "$dir/study.toml"
"$weft" experiment -j 2 "$dir/study.toml" > /dev/null 2>&1   # builds, runs
runs=$((n * 3))
for _ in $(seq "$repeats"); do
    rm -rf "$dir/work/runs" "$dir/work/study.sqlite"
    /usr/bin/time -f '%e %U %S' -o "$dir/time" "$weft" experiment -j 2 "$dir/study.toml" > /dev/null 2>&1
    awk '{ print $1, $2 + $3 }' "$dir/time" >> "$dir/times"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
wall_min=$(cut -d' ' -f1 "$dir/times" | sort -n | head -1)
wall_med=$(cut -d' ' -f1 "$dir/times" | median)
cpu_med=$(cut -d' ' -f2 "$dir/times" | median)
awk -v r="$runs" -v k="$repeats" -v a="$wall_min" -v b="$wall_med" -v c="$cpu_med" -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "%d runs x %d: wall per run min %.2f ms, median %.2f ms; CPU per run median %.2f ms (load %s)\n",
        r, k, a * 1000 / r, b * 1000 / r, c * 1000 / r, l
}'
