#!/usr/bin/env bash
# Builds weft and runs its main job on a bundled example: weave the ASCV3
# range-monitoring strategy into examples/range-monitoring, build the woven
# copy with the example's own unchanged Makefile (-Wall -Wextra -Werror), run
# it twice, and print the value ranges the runs recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== building weft (cargo build --release; the first build takes several minutes of CPU, later ones seconds)"
cargo build --release
weft=$PWD/target/release/weft

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== weft weave --aspect aspects/ascv3.lara --output $work/woven examples/range-monitoring"
"$weft" weave --aspect aspects/ascv3.lara --output "$work/woven" examples/range-monitoring
echo "== the woven copy builds with the example's own Makefile"
make -s -C "$work/woven/range-monitoring"
echo "== two runs, each writing its own range record into \$WEFT_OUT"
export WEFT_OUT=$work/weft-out
"$work/woven/range-monitoring/stats" 3 1 4 1 5 9 2 6 500 -7
"$work/woven/range-monitoring/stats" 42 -250 17
echo "== weft ranges show \$WEFT_OUT"
"$weft" ranges show "$WEFT_OUT"
echo "== done: weft is built in target/release/weft; 'cargo install --locked --path .' puts it on your PATH"
