#!/usr/bin/env python3
"""Patch triage on the Siemens programs: every faulty version as a patch.

For each program of ../shared/benchmarks/siemens (or the directory given with
--siemens): unpack it into a scratch directory, write each faulty version as a
patch of the original (`diff -u`), and check that `weft multiversion` accepts
every patch alone and all of them together. Then build the meta program once
and every version alone (gcc), run each revision of the meta program
(WEFT_REV=n) and each version alone on the tests of the universe (every k-th
with --every k), and count the tests where stdout or the exit status differ. A test where
they differ is counted apart as the version's own nondeterminism when the
version built alone answers it differently once only the size of its
environment changes, or valgrind (when installed) finds it reading
uninitialised memory there (its output then depends on memory layout). Prints one
table row per program.

With --questions, runs `weft triage` on the meta program instead (every
revision, the original included, on the same tests) and prints, per program,
the revisions, the behaviour classes, the most and the mean questions per
revision of its decision tree, the bound ceil(log2 classes) + 1 and the
least depth any tree of these tests can have (exhaustive search; where it
takes too long, a lower bound: "≥ L"); with
--before WEFT, the same for a second weft binary on the same tests, side by
side.

    scripts/triage-siemens.py [--weft target/debug/weft] [--every 1] [PROGRAM...]
    scripts/triage-siemens.py --questions [--before OLD_WEFT] [--every 1] [PROGRAM...]

With --fuzz SECS, builds the meta program with afl-cc and runs `weft triage
--fuzz SECS` from every k-th test feeding a file on stdin: for printtokens,
printtokens2 and totinfo (stdin-only tests) their stdin files as --inputs;
for replace, schedule and schedule2 (arguments and stdin) the tests
themselves as --tests, so that the arguments stay and stdin varies. Prints
the classes before and after, the inputs found and the time.

    scripts/triage-siemens.py --fuzz 30 --every 200 printtokens printtokens2 totinfo
    scripts/triage-siemens.py --fuzz 30 --every 200 replace schedule schedule2
"""

import argparse
import json
import re
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

def programs_in(siemens):
    """Every program archive (PROGRAM.tar.gz, SIR's layout) in the directory."""
    return sorted(f[: -len(".tar.gz")] for f in os.listdir(siemens) if f.endswith(".tar.gz"))


def patches(root, program, scratch):
    """Writes each version as a patch of the original; returns their paths."""
    base = os.path.join(root, program)
    versions = os.path.join(base, "versions.alt", "versions.orig")
    names = sorted((v for v in os.listdir(versions) if v[1:].isdigit()), key=lambda v: int(v[1:]))
    out = []
    for v in names:
        diff = subprocess.run(
            ["diff", "-u", "source.alt/source.orig", f"versions.alt/versions.orig/{v}"],
            cwd=base, capture_output=True, text=True)
        path = os.path.join(scratch, f"{program}-{v}.diff")
        with open(path, "w") as f:
            f.write(diff.stdout)
        out.append(path)
    return out


def build(src_dir, exe):
    # Strict C99: replace.c defines its own getline, which glibc declares
    # in the GNU modes.
    sources = [os.path.join(src_dir, f) for f in os.listdir(src_dir) if f.endswith(".c")]
    r = subprocess.run(["gcc", "-std=c99", "-w", "-O0", "-o", exe] + sources + ["-lm"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"build of {src_dir} failed:\n{r.stderr[:2000]}")


def run(exe, line, inputs, env):
    try:
        r = subprocess.run(f"'{exe}' {line}", shell=True, cwd=inputs, capture_output=True,
                           timeout=10, env=env)
        return (r.returncode, r.stdout)
    except subprocess.TimeoutExpired:
        return ("timeout", b"")


def check(root, program, weft, every, scratch):
    base = os.path.join(root, program)
    tree = os.path.join(base, "source.alt", "source.orig")
    diffs = patches(root, program, scratch)
    alone = 0
    for d in diffs:
        out = os.path.join(scratch, "alone-out")
        shutil.rmtree(out, ignore_errors=True)
        r = subprocess.run([weft, "multiversion", "--output", out, tree, d], capture_output=True, text=True)
        if r.returncode == 0:
            alone += 1
        else:
            print(f"  refused alone: {os.path.basename(d)}: {r.stderr.strip()[:300]}", file=sys.stderr)
    meta = os.path.join(scratch, f"meta-{program}")
    t0 = time.time()
    r = subprocess.run([weft, "multiversion", "--output", meta, tree] + diffs, capture_output=True, text=True)
    together = r.returncode == 0
    weave_s = time.time() - t0
    row = {"program": program, "versions": len(diffs), "alone": alone, "together": together,
           "weave_s": weave_s}
    if not together:
        print(f"  refused together: {r.stderr.strip()[:500]}", file=sys.stderr)
        return row
    meta_exe = os.path.join(scratch, f"{program}-meta")
    try:
        build(meta, meta_exe)
    except RuntimeError as e:
        print(f"  {e}"[:1500], file=sys.stderr)
        row.update(disagreements="meta does not build")
        return row
    exes = []
    for n, d in enumerate(diffs, start=1):
        exe = os.path.join(scratch, f"{program}-v{n}")
        build(os.path.join(base, "versions.alt", "versions.orig", f"v{n}"), exe)
        exes.append(exe)
    orig_exe = os.path.join(scratch, f"{program}-orig")
    build(tree, orig_exe)
    tests = universe(base, every)
    inputs = os.path.join(base, "inputs")
    jobs = []
    for n, exe in enumerate([orig_exe] + exes):
        for t in tests:
            jobs.append((n, exe, t))

    def one(job):
        n, exe, t = job
        env = dict(os.environ, WEFT_REV=str(n))
        alone = run(exe, t, inputs, os.environ)
        if run(meta_exe, t, inputs, env) == alone:
            return None
        if own_nondeterminism(exe, t, inputs, alone):
            print(f"  version {n} alone answers differently under other environments: {t}", file=sys.stderr)
            return "own"
        print(f"  revision {n} differs from its version alone on: {t}", file=sys.stderr)
        return "differs"

    t0 = time.time()
    with ThreadPoolExecutor(max_workers=2) as pool:
        differ = list(pool.map(one, jobs))
    row.update(tests=len(tests), runs=2 * len(jobs), disagreements=differ.count("differs"),
               own=differ.count("own"), run_s=time.time() - t0)
    return row


# Sizes of a padding variable added to the environment: the environment
# sits at the top of the stack, so each moves the stack's addresses and
# what uninitialised stack memory holds.
PADDINGS = [1, 100, 1000, 4000]


def own_nondeterminism(exe, line, inputs, answer):
    """True when the version built alone gives another answer than `answer`
    to the same test once only its environment's size changes, or, when
    valgrind is installed, valgrind's memcheck finds it reading
    uninitialised memory on that test: its output then depends on memory
    layout, and a meta program laying memory out differently cannot be held
    to it."""
    if any(run(exe, line, inputs, dict(os.environ, WEFT_PAD="x" * k)) != answer for k in PADDINGS):
        return True
    if shutil.which("valgrind") is None:
        return False
    r = subprocess.run(f"valgrind -q '{exe}' {line}", shell=True, cwd=inputs, capture_output=True, timeout=120)
    return b"uninitialised value" in r.stderr


def universe(base, every):
    with open(os.path.join(base, "testplans.alt", "universe")) as f:
        return [l.strip() for l in f if l.strip()][::every]


def tree_figures(weft, meta_exe, versions, tests_file, scratch, tag):
    """Runs `weft triage` over every revision; the figures of its tree."""
    report = os.path.join(scratch, f"triage-{tag}.json")
    t0 = time.time()
    r = subprocess.run([weft, "triage", "--revisions", f"1-{versions}", "--tests", tests_file,
                        "--jobs", "2", "--json", report], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"weft triage failed:\n{r.stderr[:2000]}")
    with open(report) as f:
        classes = json.load(f)["classes"]
    per_revision = [c["questions"] for c in classes for _ in c["revisions"]]
    return {"classes": len(classes), "revisions": len(per_revision), "max": max(per_revision),
            "mean": sum(per_revision) / len(per_revision), "s": time.time() - t0,
            "least": least_depth([c["observations"] for c in classes]),
            "lower": depth_lower_bound([c["observations"] for c in classes])}


def least_depth(signatures, budget=100000):
    """The least depth any tree of these tests can have (every question
    answered by what the classes do on one test), by iterative deepening
    over the sets of classes a question can leave; None past `budget`
    searches."""
    columns = {tuple(s[i] for s in signatures) for i in range(len(signatures[0]))} if signatures else set()
    columns = [c for c in columns if len(set(c)) > 1]
    known = {}  # members -> (largest depth known too small, smallest known enough)
    calls = [0]

    def splits(members):
        seen = set()
        for column in columns:
            parts = {}
            for k in members:
                parts.setdefault(column[k], []).append(k)
            if len(parts) < 2:
                continue
            key = tuple(sorted(tuple(p) for p in parts.values()))
            if key not in seen:
                seen.add(key)
                yield sorted(key, key=len, reverse=True)

    def within(members, d):
        if len(members) <= 1:
            return True
        low, high = known.get(members, (-1, None))
        if d <= low:
            return False
        if high is not None and d >= high:
            return True
        calls[0] += 1
        if calls[0] > budget:
            raise TimeoutError
        ok = d > 0 and any(all(within(p, d - 1) for p in parts) for parts in splits(members))
        if not any(True for _ in splits(members)):
            ok = True  # no test tells them apart: one leaf
        known[members] = (low, d) if ok else (d, high)
        return ok

    members = tuple(range(len(signatures)))
    try:
        return next(d for d in range(len(signatures)) if within(members, d))
    except TimeoutError:
        return None


def depth_lower_bound(signatures):
    """A lower bound of the least depth: the questions on the way to a class
    must together set it apart from every other class, so the way is at
    least as long as the fewest tests doing that (an exact set cover, by
    branch and bound), for the class needing most."""
    n = len(signatures)

    def cover(c):
        sets = {frozenset(k for k in range(n) if signatures[k][i] != signatures[c][i])
                for i in range(len(signatures[c]))}
        sets = [s for s in sets if s]
        best = [n]

        def bb(uncovered, k):
            if not uncovered:
                best[0] = min(best[0], k)
                return
            if k + 1 >= best[0]:
                return
            e = min(uncovered, key=lambda x: sum(1 for s in sets if x in s))
            for s in sorted((s for s in sets if e in s), key=lambda s: -len(s & uncovered)):
                bb(uncovered - s, k + 1)

        bb(frozenset(k for k in range(n) if k != c), 0)
        return best[0]

    return max((cover(c) for c in range(n)), default=0) if n > 1 else 0


def questions(root, program, weft, before, every, scratch):
    """The decision tree's figures on a program's meta program."""
    base = os.path.join(root, program)
    tree = os.path.join(base, "source.alt", "source.orig")
    diffs = patches(root, program, scratch)
    meta = os.path.join(scratch, f"meta-{program}")
    subprocess.run([weft, "multiversion", "--output", meta, tree] + diffs, check=True, capture_output=True)
    meta_exe = os.path.join(scratch, f"{program}-meta")
    build(meta, meta_exe)
    inputs = os.path.join(base, "inputs")
    tests_file = os.path.join(scratch, "tests.txt")
    tests = universe(base, every)
    with open(tests_file, "w") as f:
        f.writelines(f"cd '{inputs}' && '{meta_exe}' {t}\n" for t in tests)
    row = {"tests": len(tests), "after": tree_figures(weft, meta_exe, len(diffs), tests_file, scratch, "after")}
    if before:
        row["before"] = tree_figures(before, meta_exe, len(diffs), tests_file, scratch, "before")
    return row


def print_questions(program, r):
    a = r["after"]
    bound = math.ceil(math.log2(a["classes"])) + 1 if a["classes"] > 1 else 0
    b = r.get("before")
    was = f"{b['max']} | {b['mean']:.2f} | " if b else ""
    least = f"≥ {a['lower']}" if a["least"] is None else a["least"]
    print(f"| {program} | {a['revisions']} | {r['tests']} | {a['classes']} | {was}{a['max']} | "
          f"{a['mean']:.2f} | {bound} | {least} | {a['s']:.0f} |", flush=True)


def fuzz(root, program, weft, seconds, every, scratch):
    """Classes before and after `weft triage --fuzz` from every k-th test."""
    base = os.path.join(root, program)
    tree = os.path.join(base, "source.alt", "source.orig")
    diffs = patches(root, program, scratch)
    meta = os.path.join(scratch, f"meta-{program}")
    subprocess.run([weft, "multiversion", "--output", meta, tree] + diffs, check=True, capture_output=True)
    meta_exe = os.path.join(scratch, f"{program}-meta")
    sources = [os.path.join(meta, f) for f in os.listdir(meta) if f.endswith(".c")]
    # afl-cc is clang: old-style C its defaults refuse (a bare `return;` in
    # an int function) is let through as gcc does.
    lax = ["-w", "-Wno-return-type", "-Wno-implicit-function-declaration", "-Wno-implicit-int", "-Wno-int-conversion"]
    subprocess.run(["afl-cc", "-std=c99", "-O1", "-o", meta_exe] + lax + sources + ["-lm"], check=True,
                   capture_output=True, env=dict(os.environ, AFL_QUIET="1"))
    # (a few of totinfo's tests name files its archive lacks)
    stdin_tests = [t for t in universe(base, 1)
                   if "<" in t and os.path.isfile(os.path.join(base, "inputs", t.rsplit("<", 1)[1].strip()))][::every]
    if all(t.startswith("<") for t in stdin_tests):
        inputs = os.path.join(scratch, "fuzz-inputs")
        os.mkdir(inputs)
        for n, t in enumerate(stdin_tests):
            shutil.copy(os.path.join(base, "inputs", t[1:].strip()), os.path.join(inputs, f"t{n:05}"))
        given = ["--inputs", inputs]
        tail = ["--", meta_exe]
    else:
        tests_file = os.path.join(scratch, "tests.txt")
        with open(tests_file, "w") as f:
            f.writelines(f"cd '{base}/inputs' && '{meta_exe}' {t}\n" for t in stdin_tests)
        given = ["--tests", tests_file]
        tail = []
    t0 = time.time()
    r = subprocess.run([weft, "triage", "--revisions", f"1-{len(diffs)}"] + given + ["--jobs", "2",
                        "--timeout", "1", "--fuzz", str(seconds), "--fuzz-into", os.path.join(scratch, "found")]
                       + tail, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"weft triage --fuzz failed:\n{r.stderr[-2000:]}")
    fuzzed = [l for l in r.stdout.splitlines() if re.match(r"Round \d+: fuzzed revisions", l)]
    found = sum(int(l.rsplit(": ", 1)[1].split()[0]) for l in fuzzed)
    classes = [l for l in r.stdout.splitlines() if l.startswith("Classes before fuzzing")]
    count = int(next(l for l in r.stdout.splitlines() if l.endswith("behaviour classes:")
                     or l.endswith("behaviour class:")).split()[0])
    before, after = (classes[0].rstrip(".").replace("Classes before fuzzing: ", "").split("; after: ")
                     if classes else (count, count))
    rounds = len({l.split(":")[0] for l in fuzzed})
    print(f"| {program} | {len(diffs) + 1} | {len(stdin_tests)} | {len(fuzzed)} ({rounds} rounds) | {seconds} | "
          f"{before} | {after} | {found} | {time.time() - t0:.0f} |", flush=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--siemens", default=os.path.join(here, "..", "..", "shared", "benchmarks", "siemens"))
    ap.add_argument("--weft", default=os.path.join(here, "..", "target", "debug", "weft"))
    ap.add_argument("--every", type=int, default=1, help="run every k-th test of the universe")
    ap.add_argument("programs", nargs="*", help="default: every PROGRAM.tar.gz in --siemens")
    ap.add_argument("--questions", action="store_true", help="measure the decision tree of `weft triage`")
    ap.add_argument("--before", help="with --questions, a second weft binary measured on the same tests")
    ap.add_argument("--fuzz", type=int, metavar="SECS", help="afl-fuzz SECS seconds per class (weft triage --fuzz)")
    args = ap.parse_args()
    weft = os.path.abspath(args.weft)
    args.programs = args.programs or programs_in(args.siemens)
    if args.fuzz:
        print("| program | revisions | inputs | campaigns | s per class | classes before | classes after | "
              "inputs found | total s |")
        print("|---|---|---|---|---|---|---|---|---|")
        for program in args.programs:
            with tempfile.TemporaryDirectory(prefix="weft-triage-siemens-") as scratch:
                with tarfile.open(os.path.join(args.siemens, f"{program}.tar.gz")) as tar:
                    tar.extractall(scratch, filter="tar")
                fuzz(scratch, program, weft, args.fuzz, args.every, scratch)
        return
    if args.questions:
        before = os.path.abspath(args.before) if args.before else None
        was = "max before | mean before | " if before else ""
        print(f"| program | revisions | tests | classes | {was}max questions | mean questions | "
              "ceil(log2 classes)+1 | least depth the tests allow | triage s |")
        print("|---|---|---|---|" + ("---|---|" if before else "") + "---|---|---|---|---|")
        for program in args.programs:
            with tempfile.TemporaryDirectory(prefix="weft-triage-siemens-") as scratch:
                with tarfile.open(os.path.join(args.siemens, f"{program}.tar.gz")) as tar:
                    tar.extractall(scratch, filter="tar")
                print_questions(program, questions(scratch, program, weft, before, args.every, scratch))
        return
    print("| program | versions | accepted alone | accepted together | tests | runs | disagreements | own nondeterminism | weave s | run s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for program in args.programs:
        with tempfile.TemporaryDirectory(prefix="weft-triage-siemens-") as scratch:
            with tarfile.open(os.path.join(args.siemens, f"{program}.tar.gz")) as tar:
                tar.extractall(scratch, filter="tar")
            r = check(scratch, program, weft, args.every, scratch)
            print(f"| {program} | {r['versions']} | {r['alone']} | {'yes' if r['together'] else 'no'} | "
                  f"{r.get('tests', '-')} | {r.get('runs', '-')} | {r.get('disagreements', '-')} | {r.get('own', '-')} | "
                  f"{r['weave_s']:.1f} | {r.get('run_s', 0):.0f} |", flush=True)


if __name__ == "__main__":
    main()
