#!/usr/bin/env bash
# The main walkthrough of docs/strategies.md: range monitoring of gzip 1.12
# with the six strategies, end to end, with gzip's own unmodified build.
#
#   scripts/gzip-walkthrough.sh WORK [STRATEGY...]
#
# STRATEGY is any of freq ascv3 ascv3_s fanin comband combor (default: all
# six). Each gets WORK/<strategy>/: the woven tree, the weave log and the
# records of `make check`. The frequency report is made first, when a
# strategy needs it: freq_report woven over gzip's top-level .c files,
# built, `make check` run with WEFT_OUT=WORK/counts, then
# `weft ranges freq-report`. The fan-in report is computed at weave time.
#
# Environment: WEFT (default target/debug/weft, built if missing), GZIP_SRC
# (default third_party/gzip-1.12), NO_CHECK=1 to build without `make check`.
# Prints one line per strategy: selected and advised join points (report
# Table 4.7), weave time (Table 4.9), build and check results, record files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [ $# -lt 1 ]; then
    echo "usage: $0 WORK [freq|ascv3|ascv3_s|fanin|comband|combor]..." >&2
    exit 2
fi
mkdir -p "$1"
work=$(cd "$1" && pwd)
shift
strategies=("$@")
[ ${#strategies[@]} -gt 0 ] || strategies=(freq ascv3 ascv3_s fanin comband combor)

weft=${WEFT:-$root/target/debug/weft}
[ -x "$weft" ] || cargo build
src=${GZIP_SRC:-$root/third_party/gzip-1.12}
[ -f "$src/gzip.c" ] || { echo "no gzip sources in $src (scripts/fetch-gzip.sh)" >&2; exit 2; }

# Only gzip's own top-level .c files: not gnulib (lib/), the samples or the
# tests.
scope=(--exclude 'lib/**' --exclude 'sample/**' --exclude 'tests/**' --exclude 'doc/**')

# weave NAME ASPECT [--arg A=V]...: weaves into WORK/NAME/woven and records
# the weave time and the selected/advised counts in WORK/NAME/weave.*.
weave() {
    local name=$1 aspect=$2
    shift 2
    local dir=$work/$name
    rm -rf "$dir" && mkdir -p "$dir"
    local start end
    start=$(date +%s.%N)
    "$weft" weave --aspect "$root/aspects/$aspect" "$@" "${scope[@]}" \
        --output "$dir/woven" "$src" >"$dir/weave.log" 2>&1 \
        || { cat "$dir/weave.log" >&2; return 1; }
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }' >"$dir/weave.seconds"
    grep '^join points:' "$dir/weave.log" >"$dir/weave.counts" || true
}

# build NAME [check]: gzip's ./configure && make (&& make check with the
# records going to WORK/NAME/records). Logs in WORK/NAME/.
build() {
    local dir=$work/$1
    local tree
    tree=$(echo "$dir"/woven/*/)
    (cd "$tree" && nice ./configure -q >"$dir/configure.log" 2>&1) || { echo configure-failed >"$dir/status"; return 1; }
    (cd "$tree" && nice make -j2 >"$dir/make.log" 2>&1) || { echo make-failed >"$dir/status"; return 1; }
    if [ "${2:-}" = check ] && [ "${NO_CHECK:-}" != 1 ]; then
        rm -rf "$dir/records"
        (cd "$tree" && WEFT_OUT=$dir/records nice make -j2 check >"$dir/check.log" 2>&1) \
            || { echo check-failed >"$dir/status"; return 1; }
        echo checked >"$dir/status"
    else
        echo built >"$dir/status"
    fi
}

needs_freq=0
needs_fanin=0
for s in "${strategies[@]}"; do
    case $s in
    freq) needs_freq=1 ;;
    fanin) needs_fanin=1 ;;
    comband | combor) needs_freq=1 needs_fanin=1 ;;
    ascv3 | ascv3_s) ;;
    *) echo "unknown strategy $s" >&2; exit 2 ;;
    esac
done

if [ $needs_freq = 1 ]; then
    echo "== frequency report: freq_report woven, built, make check counts the assignments"
    weave freq_report freq_report.lara
    build freq_report check
    "$weft" ranges freq-report "$work/freq_report/records" -o "$work/freq.json"
fi
if [ $needs_fanin = 1 ]; then
    echo "== fan-in report"
    "$weft" weave --aspect "$root/aspects/fanin_report.lara" --arg "report=$work/fanin.json" \
        "${scope[@]}" --diff "$src" >"$work/fanin_report.log" 2>&1 \
        || { cat "$work/fanin_report.log" >&2; exit 1; }
    grep '^fan-in report' "$work/fanin_report.log"
fi

failed=0
for s in "${strategies[@]}"; do
    echo "== $s"
    case $s in
    freq) args=(--arg "report=$work/freq.json") ;;
    fanin) args=(--arg "report=$work/fanin.json") ;;
    comband | combor) args=(--arg "freqReport=$work/freq.json" --arg "faninReport=$work/fanin.json") ;;
    *) args=() ;;
    esac
    weave "$s" "$s.lara" "${args[@]}"
    build "$s" check || failed=1
    if [ -d "$work/$s/records" ]; then
        "$weft" ranges show "$work/$s/records" >"$work/$s/ranges.txt"
        head -5 "$work/$s/ranges.txt"
    fi
done

echo "== summary"
printf '%-12s %-28s %8s  %-14s %s\n' strategy 'join points' 'weave s' status records
stages=("${strategies[@]}")
[ $needs_freq = 0 ] || stages=(freq_report "${stages[@]}")
for s in "${stages[@]}"; do
    d=$work/$s
    records=0
    [ ! -d "$d/records" ] || records=$(find "$d/records" -name '*.ranges' | wc -l)
    printf '%-12s %-28s %8s  %-14s %s\n' "$s" "$(sed 's/^join points: //' "$d/weave.counts")" \
        "$(cat "$d/weave.seconds")" "$(cat "$d/status" 2>/dev/null || echo -)" "$records"
done
exit $failed
