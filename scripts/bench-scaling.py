#!/usr/bin/env python3
"""How weaving scales with the size of one C file.

Generates one C file of 1, 4 and 16 MB (10^6 bytes, of small functions with
a parameter write, a loop and a return each) and weaves each with two
aspects: function-entry counters (benches/entry-counters.lara) and ASCV3
(aspects/ascv3.lara), writing the woven tree with `weft weave --output`.
For each weave it prints the CPU time of the weft process (user + system),
its peak resident memory, and both per MB of C: linear work shows as
constant figures per MB. Usage, from the repository root:

    scripts/bench-scaling.py [--sizes 1,4,16] [--aspects entry,ascv3] [WEFT ...]

Each WEFT (default: target/release/weft, built first) is measured in turn,
size by size, so that several builds compare side by side in one run; runs
are one at a time.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ASPECTS = {
    "entry": "benches/entry-counters.lara",
    "ascv3": "aspects/ascv3.lara",
}
FUNCTION = (
    "int f{i}(int x, int y)\n{{\n  int s = 0;\n  for (int i = 0; i < x; i++) {{\n"
    "    s += i * y;\n  }}\n  return s + {i};\n}}\n\n"
)
MB = 1_000_000


def generate(directory, megabytes):
    """A file of whole functions, the first `megabytes` MB or just over."""
    path = os.path.join(directory, f"gen{megabytes:g}mb", "gen.c")
    os.makedirs(os.path.dirname(path))
    size, i = 0, 0
    with open(path, "w") as f:
        while size < megabytes * MB:
            text = FUNCTION.format(i=i)
            f.write(text)
            size += len(text)
            i += 1
    return path, i


def measure(weft, aspect, path, out):
    """CPU seconds (user + system) and peak resident MiB of one weave."""
    cmd = [weft, "weave", "--aspect", aspect, "--output", out, path]
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({child.returncode}):\n{stderr.decode(errors='replace')}")
    shutil.rmtree(out, ignore_errors=True)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,4,16", help="file sizes in MB, comma-separated")
    parser.add_argument("--aspects", default="entry,ascv3", help=f"of {', '.join(ASPECTS)}")
    parser.add_argument("wefts", nargs="*", metavar="WEFT")
    args = parser.parse_args()
    wefts = args.wefts
    if not wefts:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "weft"], check=True)
        wefts = ["target/release/weft"]
    sizes = [float(s) for s in args.sizes.split(",")]
    aspects = args.aspects.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        print("| weft | aspect | MB | functions | CPU | CPU per MB | peak memory | MiB per MB |")
        print("|---|---|---|---|---|---|---|---|")
        for mb in sizes:
            path, functions = generate(tmp, mb)
            megabytes = os.path.getsize(path) / MB
            for aspect in aspects:
                for weft in wefts:
                    cpu, mib = measure(weft, ASPECTS[aspect], path, os.path.join(tmp, "out"))
                    print(
                        f"| {weft} | {aspect} | {mb:g} | {functions:,} | {cpu:.2f} s | "
                        f"{cpu / megabytes:.2f} s | {mib:.0f} MiB | {mib / megabytes:.1f} |",
                        flush=True,
                    )
            shutil.rmtree(os.path.dirname(path))


if __name__ == "__main__":
    main()
