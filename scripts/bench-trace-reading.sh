#!/usr/bin/env bash
# Measures `weft invariants learn` on one large trace file: a loop calling
# one function CALLS times, woven with aspects/invariants.lara and run with
# sampling off, so its trace reaches the runtime's size cap (256 MiB at the
# default 3,000,000 calls). Each weft binary given is timed on the same
# trace, side by side, ROUNDS times (wall, user, max resident), and their
# printed invariants are compared:
#
#   scripts/bench-trace-reading.sh [CALLS] [ROUNDS] [WEFT...]
#
# The first binary (default target/release/weft) also weaves. Needs gcc and
# /usr/bin/time.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
calls=${1:-3000000}
rounds=${2:-2}
shift $(($# < 2 ? $# : 2))
binaries=("${@:-$here/target/release/weft}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/src"
cat > "$dir/src/big.c" <<'C'
#include <stdio.h>
#include <stdlib.h>

static long total;

static long step(long i, long k)
{
    long r = 3 * i + k;
    total += r % 7;
    return r;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    for (long i = 0; i < n; i++)
        step(i, i % 5);
    printf("%ld\n", total);
    return 0;
}
C
"${binaries[0]}" weave --aspect "$here/aspects/invariants.lara" --output "$dir/woven" "$dir/src" >/dev/null
gcc -O2 -o "$dir/big" "$dir/woven/src/big.c"
WEFT_TRACE_SAMPLING=all WEFT_OUT="$dir/out" "$dir/big" "$calls" >/dev/null
ls -l "$dir"/out/*.trace | awk '{print "trace file: " $5 " bytes"}'
for round in $(seq "$rounds"); do
    for i in "${!binaries[@]}"; do
        /usr/bin/time -f "round $round, ${binaries[$i]}: %e s wall, %U s user, %M KB max resident" \
            "${binaries[$i]}" invariants learn "$dir/out" >"$dir/printed.$i" 2>"$dir/time.$i"
        grep -E "^(learned from|round )" "$dir/time.$i"
    done
done
for i in "${!binaries[@]}"; do
    cmp -s "$dir/printed.0" "$dir/printed.$i" || echo "${binaries[$i]} prints other invariants than ${binaries[0]}"
done
