#!/usr/bin/env bash
# Measures `weft experiment` on a generated study of the fault benchmarks'
# shape (scripts/gen-study.py: a one-file program, VERSIONS faulty versions,
# TESTS tests, two range strategies, so (VERSIONS + 1) x TESTS x 3 runs):
#
#   scripts/bench-study.sh [VERSIONS] [TESTS] [JOBS]     (default 40 1600 2)
#
# Needs target/release/weft (or WEFT=...), gcc, python3. Prints
#  1. the whole study from scratch with -j JOBS: wall, user and system time;
#  2. what it left on disk: files, directories and bytes under work/ and
#     report/;
#  3. per-run cost: a study of 4 versions with the same tests, its runs
#     redone with -j 1 (a changed timeout re-keys every run, not the
#     builds); a run's cost is the time between consecutive runs' ends, all
#     the harness does for a run included. Beside it, the physical limit:
#     a bare fork+exec+wait of the same binaries with the same arguments
#     (stdout to /dev/null, records written as under the harness).
# Median and p95 are over all runs. Run ends are read from the run
# directories' `key` files (the per-run directory layout of weft before the
# study database) or the study database's `finished_ns` column, whichever
# the harness wrote; with the database, the medians of its per-run timings
# (`prepare_us`, `exec_us`, `keep_us`) say where a run's time goes. The
# database keeps those (its `timings` table) only when WEFT_STUDY_TIMINGS is
# set, as it is here for the small study, not for the whole one.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
weft=${WEFT:-$here/target/release/weft}
versions=${1:-40}
tests=${2:-1600}
jobs=${3:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

generate() { # DIR VERSIONS
    python3 "$here/scripts/gen-study.py" "$1" "$2" "$tests"
    cp -r "$here/aspects" "$1/aspects"
}

footprint() { # DIR: files, directories, apparent bytes, disk usage
    local files dirs bytes
    files=$(find "$1" -type f | wc -l)
    dirs=$(find "$1" -type d | wc -l)
    bytes=$(find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    printf '%s files, %s directories, %.1f MB written, %.1f MB on disk' \
        "$files" "$dirs" "$(awk -v b="$bytes" 'BEGIN { print b / 1000000 }')" "$(du -sk "$1" | awk '{ print $1 / 1000 }')"
}

# 1, 2: the whole study.
generate "$dir/full" "$versions"
runs=$(( (versions + 1) * tests * 3 ))
/usr/bin/time -f '%e %U %S' -o "$dir/time" "$weft" experiment -j "$jobs" "$dir/full/study.toml" \
    > "$dir/full.out" 2> "$dir/full.err" || { tail -20 "$dir/full.err"; exit 1; }
read -r wall user sys < "$dir/time"
echo "study: $((versions + 1)) versions x $tests tests x 3 arms = $runs runs, -j $jobs (load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "  wall ${wall}s, user ${user}s, system ${sys}s; $(grep -o 'runs: [0-9]* done' "$dir/full.err")"
echo "  work/:   $(footprint "$dir/full/work")"
echo "  report/: $(footprint "$dir/full/report")"

# 3: per-run cost with one job.
generate "$dir/small" 4
study=$dir/small/study.toml
"$weft" experiment -j "$jobs" "$study" > /dev/null 2>&1
sed -i 's/^timeout_secs = 2$/timeout_secs = 3/' "$study"
WEFT_STUDY_TIMINGS=1 /usr/bin/time -f '%e' -o "$dir/time" "$weft" experiment -j 1 "$study" > /dev/null 2> "$dir/small.err"
small_runs=$(( 5 * tests * 3 ))
ends=$dir/ends
if [ -d "$dir/small/work/runs/plain" ]; then
    find "$dir/small/work/runs" -name key -printf '%T@\n' > "$ends"
else
    python3 - "$dir/small/work/study.sqlite" > "$ends" <<'EOF'
import sqlite3, sys
for (ns,) in sqlite3.connect(sys.argv[1]).execute("SELECT finished_ns FROM timings"):
    print(ns / 1e9)
EOF
fi
# Consecutive ends' differences, in microseconds.
sort -n "$ends" | awk 'NR > 1 { printf "%d\n", ($1 - prev) * 1e6 } { prev = $1 }' > "$dir/harness"

# The bare limit: the same binaries and arguments, fork+exec+wait in C.
cat > "$dir/bare.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
/* Reads lines "BINARY ARG..." and prints each one's fork+exec+wait time (us). */
int main(void)
{
    char line[4096];
    int null = open("/dev/null", O_WRONLY);
    while (fgets(line, sizeof line, stdin)) {
        char *argv[64];
        int argc = 0;
        for (char *t = strtok(line, " \n"); t && argc < 63; t = strtok(NULL, " \n"))
            argv[argc++] = t;
        argv[argc] = NULL;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(null, 1);
            dup2(null, 2);
            execv(argv[0], argv);
            _exit(127);
        }
        waitpid(pid, NULL, 0);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%ld\n", (b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000);
    }
    return 0;
}
EOF
gcc -O2 -o "$dir/bare" "$dir/bare.c"
{
    find "$dir/small/work/builds/plain" -path '*/tree/prog'
    find "$dir/small/work/builds" -path '*/woven/tree/prog'
} > "$dir/binaries"
mkdir -p "$dir/bare-out"
while read -r bin; do sed "s|^|$bin |" "$dir/small/tests.txt"; done < "$dir/binaries" \
    | (cd "$dir/bare-out" && WEFT_OUT="$dir/bare-out" "$dir/bare") > "$dir/bare-times"

stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "median %.2f ms, p95 %.2f ms", v[int((NR + 1) / 2)] / 1000, v[int(NR * 0.95)] / 1000 }'; }
echo "per-run cost, $small_runs runs with -j 1 (wall $(cat "$dir/time")s, load $(cut -d' ' -f1 /proc/loadavg)):"
echo "  harness:        $(stats "$dir/harness")"
echo "  bare fork+exec: $(stats "$dir/bare-times") ($(wc -l < "$dir/bare-times") execs)"
if [ -f "$dir/small/work/study.sqlite" ]; then
    # Where a run's time goes, as the harness records it (medians, ms).
    python3 - "$dir/small/work/study.sqlite" <<'EOF'
import sqlite3, statistics, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT prepare_us, exec_us, keep_us FROM timings").fetchall()
med = [statistics.median(c) / 1000 for c in zip(*rows)]
print("  harness parts (median): key and directory %.2f ms, the test %.2f ms, records and results %.2f ms" % tuple(med))
EOF
fi
sort -n "$dir/harness" > "$dir/h.sorted"
sort -n "$dir/bare-times" > "$dir/b.sorted"
awk 'NR == FNR { h[NR] = $1; nh = NR; next } { b[FNR] = $1; nb = FNR }
     END { printf "  harness / bare: median %.2fx, p95 %.2fx\n", h[int((nh + 1) / 2)] / b[int((nb + 1) / 2)], h[int(nh * 0.95)] / b[int(nb * 0.95)] }' \
    "$dir/h.sorted" "$dir/b.sorted"
