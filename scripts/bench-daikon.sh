#!/usr/bin/env bash
# weft vs Daikon 5.8.25 learning likely invariants from the same Daikon v2
# traces, two of them:
#  gen   a generated trace of SAMPLES samples (default 200000) of 11 integer
#        variables at one point;
#  gzip  gzip 1.12 (third_party/gzip-1.12, or $WEFT_GZIP_DIR; fetched by
#        scripts/fetch-gzip.sh) woven with aspects/invariants.lara, built
#        with its own ./configure && make, and run on a fixed workload
#        (compress at levels 1, 6 and 9, test, list and decompress three
#        inputs, and decompress from stdin: 19 runs), its traces exported with
#        `weft invariants export`.
# For each trace it prints wall seconds, CPU seconds (user+sys) and max RSS
# of each tool, median of RUNS (default 3) side-by-side pairs, and the
# ratios. Daikon is found in $WEFT_DAIKON_DIR, else ../shared/daikon beside
# the checkout (its heap: $WEFT_DAIKON_HEAP, default 4g); weft is built with
# --release (or $WEFT_BIN).
# Usage: scripts/bench-daikon.sh [SAMPLES] [RUNS] [all|gen|gzip]
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-200000}
runs=${2:-3}
which=${3:-all}
daikon=${WEFT_DAIKON_DIR:-../shared/daikon}
heap=${WEFT_DAIKON_HEAP:-4g}  # Daikon's Java heap (-Xmx)
[ -f "$daikon/daikon-5.8.25.jar" ] || { echo "no Daikon in $daikon (set WEFT_DAIKON_DIR)" >&2; exit 2; }
if [ -z "${WEFT_BIN:-}" ]; then
  cargo build --release -q -j 2
  WEFT_BIN=target/release/weft
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One measured command: "wall cpu maxrss_kb".
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>&1
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/time"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# compare NAME TRACE EXPECTED: both tools learn from TRACE once (weft must
# print EXPECTED, Daikon must exit 0: a failing run would be timed too),
# then RUNS timed pairs, alternately; prints the medians and the ratios.
compare() {
  local name=$1 trace=$2 expected=$3
  "$WEFT_BIN" invariants learn "$trace" > "$work/weft.txt" 2>&1
  grep -qF -- "$expected" "$work/weft.txt" || { cat "$work/weft.txt" >&2; exit 1; }
  java -Xmx"$heap" -cp "$daikon/*" daikon.Daikon -o "$work/check.inv.gz" "$trace" > "$work/daikon.txt" 2>&1 ||
    { cat "$work/daikon.txt" >&2; exit 1; }
  : > "$work/weft"; : > "$work/daikon"
  for _ in $(seq "$runs"); do
    measure "$WEFT_BIN" invariants learn "$trace" >> "$work/weft"
    measure java -Xmx"$heap" -cp "$daikon/*" daikon.Daikon --no_text_output -o "$work/out.inv.gz" \
      "$trace" >> "$work/daikon"
  done
  echo "$name: $(du -h "$trace" | cut -f1); median of $runs pairs"
  printf '%-8s %8s %8s %10s\n' tool wall_s cpu_s maxrss_mb
  for tool in weft daikon; do
    for col in 1 2 3; do cut -d' ' -f$col "$work/$tool" | median; done | paste -sd' ' |
      awk -v t="$tool" '{printf "%-8s %8s %8s %10.0f\n", t, $1, $2, $3 / 1024}'
  done | tee "$work/table"
  awk 'NR==1 {w=$2; c=$3; m=$4} NR==2 {printf "ratio    %7.1fx %7.1fx %9.1fx  (Daikon / weft)\n", $2/w, $3/c, $4/m}' "$work/table"
  echo
}

# The trace: 11 integers with relations Daikon and weft both find
# (x1 >= 0, x2 == 2*x1 + 3, x3 one of 3 values, x4 <= x5, ...).
gen_trace() {
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
}

# gzip woven with the invariants aspect, built, run on the workload; its
# traces exported into one .dtrace.
gzip_trace() {
  local src=${WEFT_GZIP_DIR:-third_party/gzip-1.12}
  [ -f "$src/gzip.c" ] || { echo "no gzip 1.12 in $src (scripts/fetch-gzip.sh)" >&2; exit 2; }
  "$WEFT_BIN" weave --aspect aspects/invariants.lara --output "$work/woven" "$src" > "$work/weave.txt" 2>&1 ||
    { cat "$work/weave.txt" >&2; exit 1; }
  # The woven tree is the input directory's mirror, under its own name.
  ln -s "woven/$(basename "$(cd "$src" && pwd)")" "$work/gzip"
  (cd "$work/gzip" && ./configure -q > "$work/make.txt" 2>&1 && make -s -j 2 >> "$work/make.txt" 2>&1) ||
    { cat "$work/make.txt" >&2; exit 1; }
  mkdir -p "$work/in"
  cp "$src/gzip.c" "$src/ChangeLog" "$work/in/"
  python3 -c 'import random; r = random.Random(3); print("".join(r.choice("acgt") for _ in range(400000)))' > "$work/in/dna.txt"
  local f gz
  n=0
  for f in "$work"/in/*; do
    for level in 1 6 9; do
      n=$((n + 1)); WEFT_OUT="$work/traces/r$n" "$work/gzip/gzip" -$level -c "$f" > "$f.$level.gz"
    done
    gz="$f.6.gz"
    n=$((n + 1)); WEFT_OUT="$work/traces/r$n" "$work/gzip/gzip" -t "$gz"
    n=$((n + 1)); WEFT_OUT="$work/traces/r$n" "$work/gzip/gzip" -l "$gz" > /dev/null
    n=$((n + 1)); WEFT_OUT="$work/traces/r$n" "$work/gzip/gzip" -dc "$gz" | cmp - "$f"
  done
  n=$((n + 1)); WEFT_OUT="$work/traces/r$n" "$work/gzip/gzip" -dc < "$work/in/dna.txt.9.gz" > /dev/null
  "$WEFT_BIN" invariants export -o "$work/gzip.dtrace" "$work"/traces/r* > /dev/null
}

case $which in all|gen|gzip) ;; *) echo "usage: $0 [SAMPLES] [RUNS] [all|gen|gzip]" >&2; exit 2 ;; esac
if [ "$which" != gzip ]; then
  gen_trace
  compare "generated trace: $samples samples of 11 integers" "$work/gen.dtrace" 'x2 == 2 * x1 + 3'
fi
if [ "$which" != gen ]; then
  gzip_trace
  compare "gzip 1.12 trace: $n runs" "$work/gzip.dtrace" 'util.c.updcrc():::ENTER'
fi
