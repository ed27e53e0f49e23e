#!/usr/bin/env bash
# A short AFL++ campaign against a non-terminating loop, with weft's
# non-termination monitor as the fuzzer's oracle (docs/nonterm.md).
#
#   scripts/fuzz-nonterm.sh [--target tlv|dcraw | --svcomp FILE.c] [SECONDS] [WORK]
#       (defaults: tlv, 60, target/nonterm-fuzz, target/nonterm-fuzz-dcraw
#       or target/nonterm-fuzz-svcomp)
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
#   --svcomp FILE.c
#          any SV-COMP-style program: `weft nonterm check --svcomp --runs 1
#          --keep` weaves it (goto loops, the harness, svcomp=on, policy
#          abort) and keeps the woven file and the harness, which afl-cc
#          builds; AFL++ gives its test case on stdin and WEFT_NONDET_INPUT=-
#          makes its bytes the __VERIFIER_nondet_*() values (docs/nonterm.md,
#          "Fuzzing with AFL++"); the seeds are `weft nonterm seeds`, the
#          program's constants as input bytes. WEFT_VERIFIER_ERROR=exit
#          makes a failed __VERIFIER_assert end the run quietly, so that the
#          crashes are the monitor's reports and the program's own crashes.
#          Every crashing input is replayed (up to 50); a replay with a
#          report is a loop found.
#
# WEFT=path/to/weft uses that weft instead of building the release one.
# AFL++ is Debian's afl++ package; the script installs it when missing
# (apt-get, so root). WORK is replaced.
set -euo pipefail
cd "$(dirname "$0")/.."
target=tlv
if [ "${1:-}" = --target ]; then
    target=${2:?--target needs tlv or dcraw}
    shift 2
elif [ "${1:-}" = --svcomp ]; then
    target=svcomp
    source=${2:?--svcomp needs a C file}
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
svcomp)
    work=${2:-target/nonterm-fuzz-svcomp}
    [ -f "$source" ] || { echo "fuzz-nonterm: $source: no such file" >&2; exit 2; }
    cflags=(-O1 -w -I "$(dirname "$source")" -lm)
    args=()
    seeds=$work/seeds
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

if [ -n "${WEFT:-}" ]; then
    weft=$(cd "$(dirname "$WEFT")" && pwd)/$(basename "$WEFT")
else
    echo "== building weft" >&2
    cargo build --release --quiet --bin weft
    weft=$PWD/target/release/weft
fi

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
if [ "$target" = svcomp ]; then
    status=0
    "$weft" nonterm check --svcomp --runs 1 --keep "$work/check" "$source" >"$work/check.log" 2>&1 || status=$?
    if [ "$status" -eq 2 ] || [ ! -x "$work/check/program" ]; then
        echo "fuzz-nonterm: weaving or building failed; see $work/check.log" >&2
        exit 1
    fi
    "$weft" nonterm seeds --output "$seeds" "$source" 2>/dev/null
    AFL_QUIET=1 afl-cc -o "$work/$name-afl" "$work/check/woven/$name.c" "$work/check/weft_svcomp_harness.c" "${cflags[@]}"
    cp "$work/check/program" "$work/$name"
else
    "$weft" weave --aspect aspects/nonterm.lara --output "$work/woven" "$source"
    AFL_QUIET=1 afl-cc -o "$work/$name-afl" "$work/woven/$name.c" "${cflags[@]}"
    gcc -o "$work/$name" "$work/woven/$name.c" "${cflags[@]}"
fi

echo "== fuzzing for $seconds s" >&2
if [ "$target" = svcomp ]; then
    # the test case, on stdin; a failed assertion is not a crash here
    export WEFT_NONDET_INPUT=- WEFT_VERIFIER_ERROR=exit
    # an inexact loop (one reading an array it writes) is reported, as
    # suspected, within AFL++'s timeout, as for dcraw
    export WEFT_NONTERM_PATIENCE=${WEFT_NONTERM_PATIENCE:-100000}
fi
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
WEFT_OUT="$work/afl-reports" afl-fuzz -i "$seeds" -o "$work/afl" -V "$seconds" \
    -- "$work/$name-afl" "${args[@]}" >"$work/afl.log" 2>&1 || fuzzed=$?

shopt -s nullglob
crashes=("$work"/afl/default/crashes/id:*)
hangs=("$work"/afl/default/hangs/id:*)
if [ "${fuzzed:-0}" -ne 0 ]; then
    # AFL++ 4.04c refuses to start when every seed crashes; then the seeds
    # are the crashing inputs, found before any fuzzing.
    if ! grep -q "valid input seed that does not crash" "$work/afl.log"; then
        echo "fuzz-nonterm: afl-fuzz failed; its output is in $work/afl.log" >&2
        exit 1
    fi
    echo "AFL++ did not start: every seed crashes; replaying the seeds" >&2
    crashes=("$seeds"/*)
fi
[ "${fuzzed:-0}" -eq 0 ] &&
    echo "AFL++: ${#crashes[@]} crashing inputs (monitor reports), ${#hangs[@]} hangs, in $seconds s"
[ ${#crashes[@]} -gt 0 ] || exit 1
replays=("${crashes[@]:0:3}")
[ "$target" = svcomp ] && replays=("${crashes[@]:0:50}")
reported=0
for input in "${replays[@]}"; do
    id=$(basename "$input" | cut -d, -f1)
    replay="$work/replay/${id/:/-}"
    mkdir -p "$replay"
    run=("${args[@]/@@/$input}")
    if [ ${#args[@]} -eq 0 ]; then
        (WEFT_OUT="$replay" "$work/$name" <"$input" >/dev/null 2>&1 || true) 2>/dev/null || true
    else
        (WEFT_OUT="$replay" "$work/$name" "${run[@]}" </dev/null >/dev/null 2>&1 || true) 2>/dev/null || true
    fi
    at=$(basename "$input" | grep -o 'time:[0-9]*' | cut -d: -f2 || true)
    shown=0
    report=$("$weft" nonterm show "$replay" 2>/dev/null) || shown=$?
    printf 'input %s (%s bytes, found at %s): ' "$id" "$(wc -c <"$input")" "$([ -n "$at" ] && echo "$at ms" || echo "a seed")"
    if [ "$shown" -eq 1 ]; then
        reported=$((reported + 1))
        printf '\n  %s\n' "$report"
    else
        echo "no report (a crash of the program's own)"
    fi
done
echo "$reported of ${#replays[@]} crashing inputs replayed report a loop"
