#!/usr/bin/env python3
"""How weaving scales with the size of one C file.

Generates files of N small functions (each with a parameter write, a loop
and a return), weaves each with ASCV3 (`weft weave --diff`, release build)
and prints wall time and peak memory per size. Linear work shows as a
constant time per function. Usage, from the repository root:

    scripts/bench-scaling.py [WEFT ...]

Each WEFT (default: target/release/weft, built first) is measured in turn,
size by size, so two builds compare side by side in one run.
"""

import os
import resource
import subprocess
import sys
import tempfile
import time

SIZES = [1000, 4000, 16000]
FUNCTION = (
    "int f{i}(int x, int y)\n{{\n  int s = 0;\n  for (int i = 0; i < x; i++) {{\n"
    "    s += i * y;\n  }}\n  return s + {i};\n}}\n\n"
)


def generate(directory, n):
    path = os.path.join(directory, f"gen{n}.c")
    with open(path, "w") as f:
        for i in range(n):
            f.write(FUNCTION.format(i=i))
    return path


def measure(weft, path):
    """Wall seconds and peak resident MiB of one weave, in a child of its own."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)\n"
        "w = time.perf_counter() - t\n"
        "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    cmd = [sys.executable, "-c", probe, weft, "weave", "--aspect", "aspects/ascv3.lara", "--diff", path]
    wall, kib = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()
    return float(wall), int(kib) / 1024


def main():
    wefts = sys.argv[1:]
    if not wefts:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "weft"], check=True)
        wefts = ["target/release/weft"]
    with tempfile.TemporaryDirectory() as tmp:
        files = {n: generate(tmp, n) for n in SIZES}
        print("| weft | functions | bytes | wall | per 1,000 functions | peak memory |")
        print("|---|---|---|---|---|---|")
        for n in SIZES:
            for weft in wefts:
                wall, mib = measure(weft, files[n])
                size = os.path.getsize(files[n])
                print(f"| {weft} | {n:,} | {size:,} | {wall:.2f} s | {wall * 1000 / n:.2f} s | {mib:.0f} MiB |", flush=True)


if __name__ == "__main__":
    main()
