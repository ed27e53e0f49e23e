#!/usr/bin/env bash
# Run-time cost of range monitoring on gzip 1.12: compress and decompress a
# 64 MiB file with each woven gzip and with plain gzip built the same way
# (gzip's own ./configure && make, default flags), side by side in one run.
#
#   scripts/bench-gzip.sh WORK [ROUNDS]
#
# WORK is a directory of scripts/gzip-walkthrough.sh: each WORK/<strategy>/
# with a built woven tree is measured (run the walkthrough first, NO_CHECK=1
# is enough). The plain build goes to WORK/plain. Rounds (default 5) run every
# binary once each, interleaved, so machine noise hits all of them alike. The
# figures are CPU time (user + system of the gzip process), the median per
# binary, and the ratio to plain gzip: the median over rounds of each round's
# woven/plain pair, so a slow round skews neither side.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ $# -ge 1 ] || { echo "usage: $0 WORK [ROUNDS]" >&2; exit 2; }
work=$(cd "$1" && pwd)
rounds=${2:-5}
src=${GZIP_SRC:-$root/third_party/gzip-1.12}

if [ ! -x "$work/plain/gzip-1.12/gzip" ]; then
    echo "== building plain gzip in $work/plain"
    rm -rf "$work/plain" && mkdir -p "$work/plain"
    cp -a "$src" "$work/plain/gzip-1.12"
    (cd "$work/plain/gzip-1.12" && ./configure -q >/dev/null && make -j2 >/dev/null)
fi

input=$work/bench-input-64MiB
if [ ! -f "$input" ]; then
    # Deterministic and realistic: gzip's own sources and documentation
    # (text, ratio ~3-4) interleaved with 1 KiB blocks of pseudo-random bytes
    # (incompressible), 64 MiB in all.
    python3 - "$src" "$input" <<'PY'
import pathlib, random, sys
src, out = pathlib.Path(sys.argv[1]), sys.argv[2]
text = b"".join(p.read_bytes() for p in sorted(src.glob("*.[ch]")) + sorted(src.glob("doc/*")) if p.is_file())
rng = random.Random(1)
size, chunks, done, pos = 64 << 20, [], 0, 0
while done < size:
    piece = text[pos:pos + 7168] if pos + 7168 <= len(text) else text[:7168]
    pos = (pos + 7168) % max(1, len(text) - 7168)
    block = piece + rng.randbytes(1024)
    chunks.append(block)
    done += len(block)
pathlib.Path(out).write_bytes(b"".join(chunks)[:size])
PY
fi
"$work/plain/gzip-1.12/gzip" -c "$input" >"$work/bench-input.gz"

binaries=("plain=$work/plain/gzip-1.12/gzip")
for d in "$work"/*/woven/gzip-1.12; do
    [ -x "$d/gzip" ] || continue
    name=$(basename "$(dirname "$(dirname "$d")")")
    [ "$name" = freq_report ] && continue
    binaries+=("$name=$d/gzip")
done

python3 - "$rounds" "$input" "$work/bench-input.gz" "$work" "${binaries[@]}" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile
rounds, plain_in, packed, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
binaries = [b.split("=", 1) for b in sys.argv[5:]]
ops = (("compress", ["-c"], plain_in), ("decompress", ["-dc"], packed))
cpu = {(n, op): [] for n, _ in binaries for op, _, _ in ops}
records = tempfile.mkdtemp(dir=work)

def run(exe, args, data):
    """CPU seconds (user + system) of one run, from wait4's rusage."""
    with open(data, "rb") as stdin, open(os.devnull, "wb") as null:
        child = subprocess.Popen([exe, *args], stdin=stdin, stdout=null, env=dict(os.environ, WEFT_OUT=records))
        _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"{exe} {' '.join(args)} failed (status {status})")
    return usage.ru_utime + usage.ru_stime

for _ in range(rounds):
    for op, args, data in ops:
        for name, exe in binaries:
            cpu[(name, op)].append(run(exe, args, data))
shutil.rmtree(records)

def ratio(name, op):
    """Median over rounds of the ratio to plain gzip's run of the same round."""
    return statistics.median(w / p for w, p in zip(cpu[(name, op)], cpu[("plain", op)]))

print(f"{'binary':<12} {'compress s':>10} {'ratio':>6} {'decompress s':>12} {'ratio':>6}   (CPU s, {rounds} rounds; ratio: median of per-round woven/plain)")
for name, _ in binaries:
    c, d = (statistics.median(cpu[(name, op)]) for op, _, _ in ops)
    print(f"{name:<12} {c:>10.3f} {ratio(name, 'compress'):>6.3f} {d:>12.3f} {ratio(name, 'decompress'):>6.3f}")
PY
