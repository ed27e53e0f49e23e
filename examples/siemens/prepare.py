#!/usr/bin/env python3
"""Turns the Siemens programs (SIR) into `weft experiment` studies.

For each program archive in the benchmark directory (default
../../../shared/benchmarks/siemens, relative to this script; any archive
in SIR's layout, PROGRAM.tar.gz holding PROGRAM/source.alt/source.orig,
versions.alt/versions.orig/vN, inputs and testplans.alt/universe) this writes,
under the output directory (default `studies/` beside this script, ignored
by git):

    PROGRAM/source/          the original (source.alt/source.orig)
    PROGRAM/inputs/          the test inputs
    PROGRAM/versions/vN.patch   each faulty version as a patch of the original
    PROGRAM/suite.toml       the universe test plan as the study's tests
    PROGRAM/study.toml       the study (weft experiment PROGRAM/study.toml -j 2)

Quirks of the material handled here:
- a version may differ from the original in a header only (printtokens v4,
  v6 change tokens.h): the patch covers every file;
- test plans name files relative to the program's scripts/ directory
  (`../inputs/jk1`) and standard input relative to inputs/ (`< jk1`): file
  arguments are copied into the run's directory and named there, standard
  input is read from the inputs directory;
- a line whose standard input file is not in the archive never ran the
  program in the original scripts either (the shell fails to open it): it
  is left out, and counted;
- replace defines its own getline(), which glibc's stdio.h also declares:
  the programs are compiled without the GNU extensions
  (-D_POSIX_C_SOURCE=200112L);
- some faulty versions loop or crash: tests have a timeout and an output cap.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Every program is linked with the maths library: a program that does not
# use it links the same without it.
LIBS = " -lm"
# Files of source.orig and versions.orig/vN that are not program text.
NOT_SOURCE = {"CONTENTS=ORIG", "UNREACHABLE"}


def natural(name):
    """v2 before v10."""
    digits = "".join(c for c in name if c.isdigit())
    return (name.rstrip("0123456789"), int(digits) if digits else -1)


def executable(src, program):
    """The executable's name: the one SIR's own scripts run
    (`../source/NAME.exe` in scripts/runall.sh), else the program's."""
    script = os.path.join(src, "scripts", "runall.sh")
    if os.path.isfile(script):
        with open(script, encoding="latin-1") as f:
            found = re.search(r"\.\./source/([A-Za-z0-9_+-]+)\.exe\b", f.read())
        if found:
            return found.group(1)
    return program


def programs_in(benchmarks):
    """The programs of the archives in the benchmark directory."""
    if not os.path.isdir(benchmarks):
        sys.exit(f"{benchmarks}: no such directory (give the benchmark directory with --benchmarks)")
    return sorted(f[: -len(".tar.gz")] for f in os.listdir(benchmarks) if f.endswith(".tar.gz"))


def unpack(archive, into):
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)


def program_files(directory):
    return sorted(f for f in os.listdir(directory) if f not in NOT_SOURCE)


def write_patch(original, version, path):
    """A patch -p1 of every file of the version against the original;
    returns False when the version equals the original."""
    chunks = []
    for f in program_files(version):
        proc = subprocess.run(
            ["diff", "-u", "--label", f"a/{f}", "--label", f"b/{f}",
             os.path.join(original, f), os.path.join(version, f)],
            capture_output=True,
        )
        if proc.returncode > 1:
            sys.exit(f"diff failed on {version}/{f}: {proc.stderr.decode(errors='replace')}")
        chunks.append(proc.stdout)
    patch = b"".join(chunks)
    if not patch:
        return False
    with open(path, "wb") as out:
        out.write(patch)
    return True


def toml_string(s):
    """A TOML literal string when possible, else a basic one."""
    if "'" not in s and "\n" not in s:
        return f"'{s}'"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def parse_line(line):
    """(arguments, stdin file or None) of one test plan line."""
    padded = " " + line
    if " < " in padded:
        args, _, stdin = padded.rpartition(" < ")
        return shlex.split(args), stdin.strip()
    return shlex.split(line), None


def suite(plan, inputs, exe, every):
    """The [[test]] tables of the plan's lines (every `every`-th line), and
    the number of lines left out for a missing standard input."""
    tables, missing = [], 0
    with open(plan, encoding="latin-1") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    for number, line in enumerate(lines, start=1):
        if (number - 1) % every:
            continue
        args, stdin = parse_line(line)
        if stdin is not None and not os.path.isfile(os.path.join(inputs, stdin)):
            missing += 1
            continue
        copied = []
        for i, a in enumerate(args):
            if a.startswith("../inputs/") and os.path.isfile(os.path.join(inputs, a[len("../inputs/"):])):
                args[i] = a[len("../inputs/"):]
                copied.append(args[i])
        cmd = " ".join([f'"$WEFT_BUILD/{exe}"'] + [shlex.quote(a) for a in args])
        t = [f"[[test]]", f"name = \"t{number}\"", f"cmd = {toml_string(cmd)}"]
        if copied:
            t.append("inputs = [" + ", ".join(toml_string(c) for c in copied) + "]")
        if stdin is not None:
            t.append(f"stdin = {toml_string(stdin)}")
        tables.append("\n".join(t) + "\n")
    return tables, missing


STUDY = """\
# Made by examples/siemens/prepare.py from {archive}.
# weft experiment {here}/study.toml -j 2
[study]
name = "siemens-{program}"
source = "source"
build = ['gcc $CFLAGS -o {exe} *.c{libs}']
cflags = "-O1 -w -D_POSIX_C_SOURCE=200112L"
inputs = "inputs"
suite = "suite.toml"
work_dir = "work"
out_dir = "report"
seed = 2026
draws = {draws}
percentages = [{percentages}]
{judging}timeout_secs = {timeout}
output_cap_bytes = 4194304
{weaver}env = {{ WEFT_TRACE_SAMPLING = "all" }}

[[version]]
name = "original"
{versions}
{strategies}"""


def invariants(name, comment="", holdout=None, args=None, extra=""):
    """One invariant strategy's [[strategy]] table."""
    lines = [comment + "[[strategy]]", f'name = "{name}"', 'kind = "weave"', 'detector = "invariants"']
    if holdout:
        lines.append(f"holdout = {holdout}")
    if extra:
        lines.append(extra)
    lines.append('aspect = "{aspects}/invariants.lara"')
    if args:
        lines.append(f"args = {{{{ {args} = true }}}}")
    return "\n".join(lines) + "\n"


# Every strategy prepare.py can write, in the order it writes them. Those
# with the same aspect and args share their builds and runs (INV_t, INV_b
# INV_hu, INV_s, INV_w, INV_wi and INV_wk are scored from INV's runs;
# INV_lt, INV_lb, INV_ls, INV_lw, INV_lwi and INV_lwk from INV_l's;
# INV_ot, INV_ob, INV_os, INV_ow, INV_owi and INV_owk from INV_o's; the
# folds hold-outs INV_f, INV_fs, INV_lf, INV_lfs, INV_of, INV_ofs likewise).
STRATEGIES = {
    "INV": invariants("INV"),
    "INV_h": invariants("INV_h", holdout="true"),
    "INV_t": invariants("INV_t", "# A count threshold set on hold-out within the alarm budget.\n", holdout='"count"'),
    "INV_b": invariants("INV_b", holdout='"halves"'),
    "INV_hu": invariants("INV_hu", holdout="true", extra='unseen_points = "all"'),
    # Loop heads: a point at the top of every loop body (traceLoopHeads).
    "INV_l": invariants("INV_l", "# Loop heads (traceLoopHeads): one more build and run of each version.\n",
                        args="traceLoopHeads"),
    "INV_lt": invariants("INV_lt", holdout='"count"', args="traceLoopHeads"),
    "INV_lb": invariants("INV_lb", holdout='"halves"', args="traceLoopHeads"),
    # Branch outcomes: a point at the first statement of each then, else and case (traceBranches).
    "INV_o": invariants("INV_o", "# Branch outcomes (traceBranches): one more build and run of each version.\n",
                        args="traceBranches"),
    "INV_ot": invariants("INV_ot", holdout='"count"', args="traceBranches"),
    "INV_ob": invariants("INV_ob", holdout='"halves"', args="traceBranches"),
    # Two count thresholds, entries and exits apart from inner points, each at half the budget.
    "INV_s": invariants("INV_s", holdout='"split"'),
    "INV_ls": invariants("INV_ls", holdout='"split"', args="traceLoopHeads"),
    "INV_os": invariants("INV_os", holdout='"split"', args="traceBranches"),
    # A score weighing each pair (w) or invariant (wi) by how rarely held-out runs broke it.
    "INV_w": invariants("INV_w", holdout='"score"'),
    "INV_lw": invariants("INV_lw", holdout='"score"', args="traceLoopHeads"),
    "INV_ow": invariants("INV_ow", holdout='"score"', args="traceBranches"),
    "INV_wi": invariants("INV_wi", holdout='"score_invariants"'),
    "INV_lwi": invariants("INV_lwi", holdout='"score_invariants"', args="traceLoopHeads"),
    "INV_owi": invariants("INV_owi", holdout='"score_invariants"', args="traceBranches"),
    # The score weighing only pairs of invariants a half learned (k).
    "INV_wk": invariants("INV_wk", holdout='"score_known"'),
    "INV_lwk": invariants("INV_lwk", holdout='"score_known"', args="traceLoopHeads"),
    "INV_owk": invariants("INV_owk", holdout='"score_known"', args="traceBranches"),
    # Cross-fitted over 5 folds of each training subset: the count (f) and
    # the score of known pairs (fs), thresholds over every training run.
    "INV_f": invariants("INV_f", holdout='"folds"'),
    "INV_lf": invariants("INV_lf", holdout='"folds"', args="traceLoopHeads"),
    "INV_of": invariants("INV_of", holdout='"folds"', args="traceBranches"),
    "INV_fs": invariants("INV_fs", holdout='"folds_score"'),
    "INV_lfs": invariants("INV_lfs", holdout='"folds_score"', args="traceLoopHeads"),
    "INV_ofs": invariants("INV_ofs", holdout='"folds_score"', args="traceBranches"),
    "ASCV3": """\
[[strategy]]
name = "ASCV3"
kind = "weave"
aspect = "{aspects}/ascv3.lara"
args = {{ onlyPrimitives = true }}
""",
}
# The default: the detectors that found the most versions within the alarm
# budget on the Siemens programs (docs/siemens.md), their arms' plain INV
# and INV_o, and ranges; two invariant arms and one range arm to build and run.
DEFAULT = ["INV", "INV_t", "INV_w", "INV_o", "INV_ot", "INV_owk", "INV_of", "ASCV3"]


def strategies(args, aspects):
    """The [[strategy]] tables the options ask for."""
    names = list(args.strategies or DEFAULT)
    if args.loop_heads:
        names += [n for n in ["INV_l", "INV_lt", "INV_lb"] if n not in names]
    if args.no_ranges and "ASCV3" in names:
        names.remove("ASCV3")
    tables = [STRATEGIES[n].format(aspects=aspects) for n in STRATEGIES if n in names]
    if args.confidence:  # INV and INV_h at a stricter confidence: scored from INV's runs.
        tables += [invariants("INV_c", extra=f"confidence = {args.confidence}").format(aspects=aspects),
                   invariants("INV_hc", holdout="true",
                              extra=f"confidence = {args.confidence}").format(aspects=aspects)]
    return "\n".join(tables)


def prepare(program, args):
    archive = os.path.join(args.benchmarks, f"{program}.tar.gz")
    if not os.path.isfile(archive):
        sys.exit(f"{archive}: no such archive (give the benchmark directory with --benchmarks)")
    out = os.path.join(args.out, program)
    raw = os.path.join(args.out, ".unpacked")
    shutil.rmtree(os.path.join(raw, program), ignore_errors=True)
    os.makedirs(raw, exist_ok=True)
    unpack(archive, raw)
    src = os.path.join(raw, program)
    if not os.path.isdir(os.path.join(src, "source.alt", "source.orig")):
        sys.exit(f"{archive}: not in SIR's layout (no {program}/source.alt/source.orig in it)")
    exe = executable(src, program)
    for sub in ["source", "inputs", "versions"]:
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    os.makedirs(os.path.join(out, "source"))
    original = os.path.join(src, "source.alt", "source.orig")
    for f in program_files(original):
        shutil.copy2(os.path.join(original, f), os.path.join(out, "source", f))
    shutil.copytree(os.path.join(src, "inputs"), os.path.join(out, "inputs"))
    os.makedirs(os.path.join(out, "versions"))
    versions_dir = os.path.join(src, "versions.alt", "versions.orig")
    versions, same = [], []
    for v in sorted((d for d in os.listdir(versions_dir) if d.startswith("v")), key=natural):
        patch = os.path.join(out, "versions", f"{v}.patch")
        if write_patch(original, os.path.join(versions_dir, v), patch):
            versions.append(f'\n[[version]]\nname = "{v}"\npatch = "versions/{v}.patch"\n')
        else:
            same.append(v)
    tables, missing = suite(os.path.join(src, "testplans.alt", "universe"), os.path.join(out, "inputs"), exe, args.every)
    with open(os.path.join(out, "suite.toml"), "w") as f:
        f.write("\n".join(tables))
    weaver = f'weaver = "{os.path.abspath(args.weaver)}"\n' if args.weaver else ""
    # Written out, default or not, so that the study says how it is judged.
    judging = f'judging = "{args.judging}"\n'
    aspects = os.path.relpath(os.path.join(REPO, "aspects"), out)
    with open(os.path.join(out, "study.toml"), "w") as f:
        f.write(STUDY.format(
            archive=archive, here=os.path.relpath(out), program=program, exe=exe, libs=LIBS,
            draws=args.draws, percentages=", ".join(str(p) for p in args.percentages), judging=judging,
            timeout=args.timeout, weaver=weaver, versions="".join(versions),
            strategies=strategies(args, aspects),
        ))
    shutil.rmtree(os.path.join(raw, program))
    note = f"; identical to the original, left out: {' '.join(same)}" if same else ""
    print(f"{program}: {len(versions)} faulty versions, {len(tables)} tests "
          f"({missing} plan lines without their standard input left out){note} -> {out}/study.toml")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("programs", nargs="*",
                    help="default: every PROGRAM.tar.gz of the benchmark directory (the six Siemens programs)")
    ap.add_argument("--benchmarks", default=os.path.join(REPO, "..", "shared", "benchmarks", "siemens"),
                    help="directory of the PROGRAM.tar.gz archives")
    ap.add_argument("--out", default=os.path.join(HERE, "studies"), help="where the studies are written")
    ap.add_argument("--every", type=int, default=1, help="keep every N-th test of the plan (default: all)")
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--percentages", type=int, nargs="+", default=[10, 50, 100])
    ap.add_argument("--timeout", type=int, default=2, help="seconds per test run")
    ap.add_argument("--judging", choices=["unseen", "every"], default="unseen",
                    help="which learned sets judge the faulty versions' runs: only those that did not train on "
                         "the run's test (default, like the original's runs), or every draw (docs/experiment.md, "
                         "\"Which sets judge a run\")")
    ap.add_argument("--confidence", type=float,
                    help="also INV_c and INV_hc: INV and INV_h at this confidence (e.g. 0.99999)")
    ap.add_argument("--loop-heads", action="store_true",
                    help="also INV_l, INV_lt and INV_lb: invariants with a point at every loop head (traceLoopHeads)")
    ap.add_argument("--strategies", nargs="+", choices=list(STRATEGIES),
                    help=f"the strategies to write (default: {' '.join(DEFAULT)})")
    ap.add_argument("--no-ranges", action="store_true",
                    help="leave ASCV3 out (its builds and runs cost as much as the invariant strategies')")
    ap.add_argument("--weaver", help="the weft binary that weaves (default: the one running the study)")
    args = ap.parse_args()
    if args.every < 1:
        sys.exit("--every must be at least 1")
    known = programs_in(args.benchmarks)
    for p in args.programs or known:
        if p not in known:
            sys.exit(f"unknown program {p}: no {p}.tar.gz in {args.benchmarks} (there: {', '.join(known)})")
    for p in args.programs or known:
        prepare(p, args)


if __name__ == "__main__":
    main()
