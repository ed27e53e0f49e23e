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
# binary once each, interleaved, so machine noise hits all of them alike; the
# figure is the median wall time per binary and its ratio to plain gzip.
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
import os, shutil, statistics, subprocess, sys, tempfile, time
rounds, plain_in, packed, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
binaries = [b.split("=", 1) for b in sys.argv[5:]]
times = {(n, op): [] for n, _ in binaries for op in ("compress", "decompress")}
records = tempfile.mkdtemp(dir=work)
for _ in range(rounds):
    for name, exe in binaries:
        for op, args, data in (("compress", ["-c"], plain_in), ("decompress", ["-dc"], packed)):
            env = dict(os.environ, WEFT_OUT=records)
            with open(data, "rb") as stdin:
                start = time.perf_counter()
                subprocess.run([exe, *args], stdin=stdin, stdout=subprocess.DEVNULL, env=env, check=True)
                times[(name, op)].append(time.perf_counter() - start)
shutil.rmtree(records)
print(f"{'binary':<10} {'compress s':>10} {'ratio':>6} {'decompress s':>12} {'ratio':>6}   ({rounds} rounds, median)")
base = {op: statistics.median(times[("plain", op)]) for op in ("compress", "decompress")}
for name, _ in binaries:
    c, d = (statistics.median(times[(name, op)]) for op in ("compress", "decompress"))
    print(f"{name:<10} {c:>10.3f} {c / base['compress']:>6.3f} {d:>12.3f} {d / base['decompress']:>6.3f}")
PY
