#!/usr/bin/env python3
"""The physical limit of a study's runs: after `weft experiment STUDY`, runs
every (build, test) pair the study ran, with the same command, arguments,
standard input, input files and environment (`WEFT_BUILD`, `WEFT_OUT`,
the study's `env`), JOBS at a time, as a bare fork+exec+wait: stdout and
stderr read and dropped, no oracle, no storage, no scoring. Monitored builds
write their records into `WEFT_OUT`, a directory per worker emptied between
runs. Prints the number of runs.

    scripts/bare-driver.py STUDY.toml [JOBS]

Reads the study's `[[test]]` tables (its own and its `suite`); test lines
(`[study.test_lines]`) are not supported. Commands are split as the study's
direct execution does for quoted words (`"$WEFT_BUILD/prog" 'a b'`).
"""

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor


def builds(work):
    """Every built tree under work/builds: ARM/VERSION/(woven/)tree."""
    root = os.path.join(work, "builds")
    for arm in sorted(os.listdir(root)):
        for version in sorted(os.listdir(os.path.join(root, arm))):
            d = os.path.join(root, arm, version)
            woven = os.path.join(d, "woven", "tree")
            yield woven if os.path.isdir(woven) else os.path.join(d, "tree")


def main():
    study_file = sys.argv[1]
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    base = os.path.dirname(os.path.abspath(study_file))
    with open(study_file, "rb") as f:
        study = tomllib.load(f)
    s = study["study"]
    tests = list(study.get("test", []))
    if "suite" in s:
        with open(os.path.join(base, s["suite"]), "rb") as f:
            tests += tomllib.load(f).get("test", [])
    if "test_lines" in s:
        sys.exit("test_lines studies are not supported")
    inputs = os.path.join(base, s.get("inputs", "inputs"))
    work = os.path.join(base, s.get("work_dir", "work"))
    timeout = s.get("timeout_secs", 10)
    trees = list(builds(work))
    scratch = tempfile.mkdtemp()

    def run_all(worker):
        cwd = os.path.join(scratch, f"w{worker}", "cwd")
        out = os.path.join(scratch, f"w{worker}", "out")
        for i in range(worker, len(trees) * len(tests), jobs):
            tree, test = trees[i // len(tests)], tests[i % len(tests)]
            for d in (cwd, out):
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
            for name in test.get("inputs", []):
                shutil.copy(os.path.join(inputs, name), os.path.join(cwd, name))
            env = dict(os.environ, **s.get("env", {}), WEFT_BUILD=tree, WEFT_OUT=out)
            argv = [os.path.expandvars(w) if w.startswith("$") else w
                    for w in shlex.split(test["cmd"].replace('"$WEFT_BUILD', '"' + tree))]
            stdin = test.get("stdin")
            with open(os.path.join(inputs, stdin) if stdin else os.devnull, "rb") as fin:
                try:
                    subprocess.run(argv, cwd=cwd, env=env, stdin=fin, capture_output=True, timeout=timeout)
                except subprocess.TimeoutExpired:
                    pass

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(run_all, range(jobs)))
    shutil.rmtree(scratch)
    print(f"bare driver: {len(trees) * len(tests)} runs ({len(trees)} builds x {len(tests)} tests)")


if __name__ == "__main__":
    main()
