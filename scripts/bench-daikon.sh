#!/usr/bin/env bash
# weft vs Daikon 5.8.25 learning likely invariants from the same Daikon v2
# trace: a generated trace of SAMPLES samples (default 200000) of 11 integer
# variables at one point. Prints wall seconds, CPU seconds (user+sys) and
# max RSS of each tool, median of RUNS (default 3) side-by-side pairs, and
# the ratios. Daikon is found in $WEFT_DAIKON_DIR, else ../shared/daikon
# beside the checkout; weft is built with --release (or $WEFT_BIN).
# Usage: scripts/bench-daikon.sh [SAMPLES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-200000}
runs=${2:-3}
daikon=${WEFT_DAIKON_DIR:-../shared/daikon}
[ -f "$daikon/daikon-5.8.25.jar" ] || { echo "no Daikon in $daikon (set WEFT_DAIKON_DIR)" >&2; exit 2; }
if [ -z "${WEFT_BIN:-}" ]; then
  cargo build --release -q -j 2
  WEFT_BIN=target/release/weft
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The trace: 11 integers with relations Daikon and weft both find
# (x1 >= 0, x2 == 2*x1 + 3, x3 one of 3 values, x4 <= x5, ...).
python3 - "$samples" > "$work/gen.dtrace" <<'PY'
import random, sys
n = int(sys.argv[1])
rnd = random.Random(7)
names = [f"x{i}" for i in range(1, 12)]
out = sys.stdout
out.write("decl-version 2.0\nvar-comparability none\n\nppt gen.step():::POINT\n  ppt-type point\n")
for name in names:
    out.write(f"  variable {name}\n    var-kind variable\n    dec-type int\n    rep-type int\n")
out.write("\n")
for _ in range(n):
    x1 = rnd.randrange(0, 1000)
    x4 = rnd.randrange(-500, 500)
    vals = [x1, 2 * x1 + 3, rnd.choice((1, 4, 9)), x4, x4 + rnd.randrange(0, 50),
            rnd.randrange(1, 100), x1 % 7, -x1, rnd.randrange(0, 1 << 20), 42, x4 * 3 - 1]
    out.write("gen.step():::POINT\n")
    for name, v in zip(names, vals):
        out.write(f"{name}\n{v}\n1\n")
    out.write("\n")
PY

# One measured command: "wall cpu maxrss_kb".
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>&1
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/time"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Both must learn from it (a failing run would be timed too).
"$WEFT_BIN" invariants learn "$work/gen.dtrace" > "$work/weft.txt" 2>&1
grep -q 'x2 == 2 \* x1 + 3' "$work/weft.txt" || { cat "$work/weft.txt" >&2; exit 1; }
java -cp "$daikon/*" daikon.Daikon -o "$work/check.inv.gz" "$work/gen.dtrace" > "$work/daikon.txt" 2>&1 || { cat "$work/daikon.txt" >&2; exit 1; }

: > "$work/weft"; : > "$work/daikon"
for _ in $(seq "$runs"); do
  measure "$WEFT_BIN" invariants learn "$work/gen.dtrace" >> "$work/weft"
  measure java -Xmx4g -cp "$daikon/*" daikon.Daikon --no_text_output -o "$work/out.inv.gz" \
    "$work/gen.dtrace" >> "$work/daikon"
done
echo "trace: $samples samples of 11 integers, $(du -h "$work/gen.dtrace" | cut -f1); median of $runs pairs"
printf '%-8s %8s %8s %10s\n' tool wall_s cpu_s maxrss_mb
for tool in weft daikon; do
  for col in 1 2 3; do cut -d' ' -f$col "$work/$tool" | median; done | paste -sd' ' |
    awk -v t="$tool" '{printf "%-8s %8s %8s %10.0f\n", t, $1, $2, $3 / 1024}'
done | tee "$work/table"
awk 'NR==1 {w=$2; c=$3; m=$4} NR==2 {printf "ratio    %7.1fx %7.1fx %9.1fx  (Daikon / weft)\n", $2/w, $3/c, $4/m}' "$work/table"
