#!/usr/bin/env bash
# Measures `weft experiment`'s per-run overhead: a study of N trivial tests
# (`true`) on the tiny fixture program, two versions, no strategy.
#   scripts/bench-experiment.sh [N]     (needs target/debug/weft or WEFT=...)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
weft=${WEFT:-$here/target/debug/weft}
n=${1:-500}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -a "$here/tests/fixtures/experiment/tiny/." "$dir"
sed -i '/^\[\[strategy\]\]/,$d' "$dir/study.toml"
for i in $(seq "$n"); do printf '[[test]]\nname = "t%d"\ncmd = "true"\n' "$i"; done >> "$dir/study.toml"
"$weft" experiment -j 2 "$dir/study.toml" > /dev/null 2>&1   # builds, runs
rm -rf "$dir/work/runs"
start=$(date +%s%N)
"$weft" experiment -j 2 "$dir/study.toml" > /dev/null 2>&1   # runs only
end=$(date +%s%N)
runs=$((n * 3))
echo "$runs runs in $(((end - start) / 1000000)) ms: $(((end - start) / runs / 1000)) us per run (2 jobs, wall clock)"
