#!/usr/bin/env bash
# A short AFL++ campaign against a non-terminating loop, with weft's
# non-termination monitor as the fuzzer's oracle (docs/nonterm.md).
#
#   scripts/fuzz-nonterm.sh [SECONDS] [WORK]     (defaults: 60, target/nonterm-fuzz)
#
# examples/nonterm-fuzz/tlv.c is woven with aspects/nonterm.lara (policy
# abort), built with AFL++'s compiler wrapper, and fuzzed from the seeds in
# examples/nonterm-fuzz/seeds. A loop whose state repeats aborts the run:
# AFL++ counts a crash, at once, where without the monitor it would wait
# for its hang timeout and count a hang with no witness. Each crashing input
# is then replayed on a plain gcc build of the woven file, and
# `weft nonterm show` prints the loop, the cycle and the witness.
#
# AFL++ is Debian's afl++ package; the script installs it when missing
# (apt-get, so root). WORK is replaced.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
work=${2:-target/nonterm-fuzz}
example=examples/nonterm-fuzz

if ! command -v afl-fuzz >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "fuzz-nonterm: AFL++ is missing; install Debian's afl++ (sudo apt-get install afl++)" >&2
        exit 1
    fi
    echo "fuzz-nonterm: installing afl++ with apt-get" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq afl++ >/dev/null
fi

echo "== building weft" >&2
cargo build --release --quiet --bin weft
weft=$PWD/target/release/weft

rm -rf "$work"
mkdir -p "$work"
echo "== weaving the non-termination monitor into $example/tlv.c" >&2
"$weft" weave --aspect aspects/nonterm.lara --output "$work/woven" "$example/tlv.c"
AFL_QUIET=1 afl-cc -O1 -w -o "$work/tlv-afl" "$work/woven/tlv.c"
gcc -O1 -w -o "$work/tlv" "$work/woven/tlv.c"

echo "== fuzzing for $seconds s" >&2
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
WEFT_OUT="$PWD/$work/afl-reports" afl-fuzz -i "$example/seeds" -o "$work/afl" -V "$seconds" \
    -- "$work/tlv-afl" >"$work/afl.log" 2>&1 || {
    echo "fuzz-nonterm: afl-fuzz failed; its output is in $work/afl.log" >&2
    exit 1
}

shopt -s nullglob
crashes=("$work"/afl/default/crashes/id:*)
hangs=("$work"/afl/default/hangs/id:*)
echo "AFL++: ${#crashes[@]} crashing inputs (monitor reports), ${#hangs[@]} hangs, in $seconds s"
[ ${#crashes[@]} -gt 0 ] || exit 1
for input in "${crashes[@]:0:3}"; do
    replay="$work/replay/$(basename "$input" | cut -d, -f1 | tr : -)"
    mkdir -p "$replay"
    (WEFT_OUT="$replay" "$work/tlv" <"$input" >/dev/null 2>&1) 2>/dev/null || true
    printf 'input %s (%s bytes):\n  ' "$(basename "$input" | cut -d, -f1)" "$(wc -c <"$input")"
    "$weft" nonterm show "$replay" 2>/dev/null || true
done
