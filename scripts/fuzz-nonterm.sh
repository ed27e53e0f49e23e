#!/usr/bin/env bash
# A short AFL++ campaign against a non-terminating loop, with weft's
# non-termination monitor as the fuzzer's oracle (docs/nonterm.md).
#
#   scripts/fuzz-nonterm.sh [--target tlv|dcraw] [SECONDS] [WORK]
#       (defaults: tlv, 60, target/nonterm-fuzz or target/nonterm-fuzz-dcraw)
#
# The target is woven with aspects/nonterm.lara (policy abort), built with
# AFL++'s compiler wrapper, and fuzzed from benign seeds. A loop whose state
# repeats aborts the run: AFL++ counts a crash, at once, where without the
# monitor it would wait for its hang timeout and count a hang with no
# witness. Each crashing input is then replayed on a plain gcc build of the
# woven program, and `weft nonterm show` prints the loop, the cycle and the
# witness.
#
# Targets:
#   tlv    examples/nonterm-fuzz/tlv.c, a type-length-value reader that never
#          moves on past a record of length 0 (input on stdin), from
#          examples/nonterm-fuzz/seeds
#   dcraw  dcraw 9.28 from Debian's source package (CVE-2018-5813,
#          examples/dcraw-hang), run as `dcraw -i FILE` from the benign
#          header of examples/dcraw-hang/make_inputs.py; its loop calls
#          stdio, so it is reported after WEFT_NONTERM_PATIENCE=100000
#          iterations (a tenth of a second). AFL++ keeps its own short
#          timeout, so the long but finite loops of inputs with huge record
#          lengths cost little; it runs an input that timed out again under
#          its 1 s hang timeout, and the report then makes it a crash.
#
# AFL++ is Debian's afl++ package; the script installs it when missing
# (apt-get, so root). WORK is replaced.
set -euo pipefail
cd "$(dirname "$0")/.."
target=tlv
if [ "${1:-}" = --target ]; then
    target=${2:?--target needs tlv or dcraw}
    shift 2
fi
seconds=${1:-60}

# What each target is: its C file, build flags, arguments (@@ is the
# input file; without it the input is the standard input), seeds, and
# extra environment.
case $target in
tlv)
    work=${2:-target/nonterm-fuzz}
    source=examples/nonterm-fuzz/tlv.c
    cflags=(-O1 -w)
    args=()
    seeds=examples/nonterm-fuzz/seeds
    ;;
dcraw)
    work=${2:-target/nonterm-fuzz-dcraw}
    scripts/fetch-debian-source.sh dcraw 9.28-3 dcraw.c third_party/dcraw-9.28
    source=third_party/dcraw-9.28/dcraw.c
    cflags=(-O4 -DNODEPS -w -lm)
    args=(-i @@)
    seeds=$work/seeds
    export WEFT_NONTERM_PATIENCE=100000
    ;;
*)
    echo "fuzz-nonterm: unknown target '$target' (tlv or dcraw)" >&2
    exit 2
    ;;
esac

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
work=$(cd "$work" && pwd)  # WORK may be relative or absolute
if [ "$target" = dcraw ]; then
    python3 examples/dcraw-hang/make_inputs.py "$work/inputs" >/dev/null
    mkdir -p "$seeds"
    cp "$work/inputs/benign.mrw" "$seeds/"
fi
name=$(basename "$source" .c)
echo "== weaving the non-termination monitor into $source" >&2
"$weft" weave --aspect aspects/nonterm.lara --output "$work/woven" "$source"
AFL_QUIET=1 afl-cc -o "$work/$name-afl" "$work/woven/$name.c" "${cflags[@]}"
gcc -o "$work/$name" "$work/woven/$name.c" "${cflags[@]}"

echo "== fuzzing for $seconds s" >&2
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
WEFT_OUT="$work/afl-reports" afl-fuzz -i "$seeds" -o "$work/afl" -V "$seconds" \
    -- "$work/$name-afl" "${args[@]}" >"$work/afl.log" 2>&1 || {
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
    run=("${args[@]/@@/$input}")
    if [ ${#args[@]} -eq 0 ]; then
        (WEFT_OUT="$replay" "$work/$name" <"$input" >/dev/null 2>&1) 2>/dev/null || true
    else
        (WEFT_OUT="$replay" "$work/$name" "${run[@]}" </dev/null >/dev/null 2>&1) 2>/dev/null || true
    fi
    printf 'input %s (%s bytes):\n  ' "$(basename "$input" | cut -d, -f1)" "$(wc -c <"$input")"
    "$weft" nonterm show "$replay" 2>/dev/null || true
done
