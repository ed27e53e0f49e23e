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
# default 60) bounds one analyse call; WEFT the binary (target/debug/weft);
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
budget=${ANALYSE_BUDGET:-60}
weft=${WEFT:-$root/target/debug/weft}
mkdir -p "$out"

kernels=$(cd "$dir" && ls *.c loop-invgen/*.c 2>/dev/null)

# One kernel: prints "name dyn src cause".
one() {
    k=$1
    name=${k//\//__}
    "$weft" nonterm check --svcomp ${opts[@]+"${opts[@]}"} --json "$dir/$k" \
        >"$out/$name.check.json" 2>"$out/$name.check.err"
    crc=$?
    timeout "$budget" "$weft" nonterm analyse --json "$dir/$k" \
        >"$out/$name.analyse.json" 2>"$out/$name.analyse.err"
    arc=$?
    d=no s=no
    [ $crc -eq 1 ] && d=yes
    if [ $arc -eq 0 ] && jq -e 'select(.results != null) | .results[] | select(.src != null)' \
        "$out/$name.analyse.json" >/dev/null 2>&1; then
        s=yes
    fi
    cause=
    if [ $d = no ]; then
        if [ $crc -eq 2 ]; then
            cause="check: $(grep -m1 -v '^$' "$out/$name.check.err" | cut -c1-80)"
        else
            cause="check: $(jq -r '[.runs[].ending] | group_by(.) | map("\(length) \(.[0])") | join(", ")' \
                "$out/$name.check.json" 2>/dev/null)"
        fi
    fi
    if [ $s = no ]; then
        if [ $arc -eq 124 ]; then
            why="analyse: over ${budget} s"
        else
            why="analyse: $(jq -r -s '[.[] | (.outside // ([.results[]?.reason] | join("/")))] | unique | join("; ")' \
                "$out/$name.analyse.json" 2>/dev/null | cut -c1-120)"
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
