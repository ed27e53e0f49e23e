#!/usr/bin/env bash
# Detection of non-termination on the SV-COMP development set: for each
# kernel, `weft nonterm check --svcomp` (dynamic: the revisit monitor, plus
# whatever the defaults weave) and `weft nonterm analyse` (static: an SRC
# under bit-vectors or ideal integers), and a per-kernel table.
#
#   scripts/bench-nonterm-svcomp.sh [DIR] [OUT]
#
# DIR defaults to ../shared/benchmarks/nonterm-svcomp, OUT to
# target/bench-nonterm-svcomp. RUNS and TIMEOUT (seconds per run), when
# set, are passed as check's --runs and --timeout (else check's defaults); ANALYSE_BUDGET (seconds,
# default 90) bounds one analyse call; WEFT the binary (target/debug/weft);
# JOBS (default 1, at most 2 on a shared machine) kernels at a time.
# Prints one line per kernel: dynamic yes/no, static yes/no, and for a miss
# the cause as check and analyse state it; then the totals.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${1:-$root/../shared/benchmarks/nonterm-svcomp}
[ -d "$dir" ] || { echo "$0: no kernels at $dir (give DIR)" >&2; exit 2; }
out=${2:-$root/target/bench-nonterm-svcomp}
opts=()
[ -n "${RUNS:-}" ] && opts+=(--runs "$RUNS")
[ -n "${TIMEOUT:-}" ] && opts+=(--timeout "$TIMEOUT")
budget=${ANALYSE_BUDGET:-90}
weft=${WEFT:-$root/target/debug/weft}
mkdir -p "$out"

kernels=$(cd "$dir" && ls *.c loop-invgen/*.c 2>/dev/null)

# One kernel: prints "name dyn src cause". With REUSE=1, a kernel whose
# outputs are in OUT already is not run again (an interrupted run resumes).
one() {
    k=$1
    name=${k//\//__}
    c=$out/$name.check a=$out/$name.analyse
    if [ -z "${REUSE:-}" ] || { [ ! -s "$c.json" ] && ! grep -q "^error" "$c.err" 2>/dev/null; }; then
        "$weft" nonterm check --svcomp ${opts[@]+"${opts[@]}"} --json "$dir/$k" >"$c.json" 2>"$c.err"
    fi
    if [ -z "${REUSE:-}" ] || { [ ! -s "$a.json" ] && [ ! -s "$a.err" ] && [ ! -e "$a.over" ]; }; then
        rm -f "$a.over"
        timeout "$budget" "$weft" nonterm analyse --json "$dir/$k" >"$a.json" 2>"$a.err"
        [ $? -eq 124 ] && touch "$a.over"
    fi
    d=no s=no
    jq -e '.loops | length > 0' "$c.json" >/dev/null 2>&1 && d=yes
    # One JSON value per loop: slurped, so that an SRC of any loop counts
    # (jq -e alone judges by the last loop's output only).
    jq -s -e 'any(.[]; (.results // []) | any(.src != null))' "$a.json" >/dev/null 2>&1 && s=yes
    [ -e "$a.over" ] && s=no
    cause=
    if [ $d = no ]; then
        if [ ! -s "$c.json" ]; then
            cause="check: $(grep -m1 -v '^$' "$c.err" | cut -c1-80)"
        else
            cause="check: $(jq -r '[.runs[].ending] | group_by(.) | map("\(length) \(.[0])") | join(", ")' "$c.json")"
        fi
    fi
    if [ $s = no ]; then
        if [ -e "$a.over" ]; then
            why="analyse: over ${budget} s"
        else
            why="analyse: $(jq -r -s '[.[] | (.outside // ([.results[]?.reason] | join("/")))] | unique | join("; ")' \
                "$a.json" 2>/dev/null | cut -c1-120)"
        fi
        cause="${cause:+$cause | }$why"
    fi
    printf '%-58s %-4s %-4s %s\n' "$name" "$d" "$s" "$cause"
}
export -f one
export dir out weft budget
export OPTS="${opts[*]-}"

printf '%-58s %-4s %-4s %s\n' kernel dyn src cause
table=$(printf '%s\n' $kernels | xargs -P "${JOBS:-1}" -I{} bash -c 'opts=($OPTS); one "$1"' _ {} | sort)
echo "$table"
total=$(echo "$table" | wc -l)
dyn=$(echo "$table" | awk '$2 == "yes"' | wc -l)
sta=$(echo "$table" | awk '$3 == "yes"' | wc -l)
both=$(echo "$table" | awk '$2 == "yes" && $3 == "yes"' | wc -l)
either=$(echo "$table" | awk '$2 == "yes" || $3 == "yes"' | wc -l)
echo "kernels: $total; dynamic: $dyn; static SRC: $sta; both: $both; either: $either"
