#!/usr/bin/env python3
"""The six Siemens studies' figures in one Markdown page section: per
detector and training percentage, the faulty versions detected by points
within the alarm budget on the original's unseen runs, per program and in
all; and per program the best run-level accuracy against the all-pass
baseline. Reads STUDIES/PROGRAM/report/report.json (default STUDIES:
studies/ beside this script).

    python3 examples/siemens/summarize.py [STUDIES]
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["printtokens", "printtokens2", "replace", "schedule", "schedule2", "totinfo"]


def load(studies, program):
    path = os.path.join(studies, program, "report", "report.json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def alarm_rate(point):
    o = point["original"]
    n = o["tp"] + o["fn"]
    return 100.0 * o["fn"] / n if n else 0.0


def detected(point):
    return sum(1 for c in point["per_version"] if c["tn"] > 0)


def detected_beyond_crashes(report, point):
    """Versions with a failing run flagged in a draw whose plain run ended
    normally: what monitoring adds to the crashes and timeouts a user sees
    without it."""
    r = report["results"]
    # The sets that judged at this percentage (at 100% the folds).
    sets = point.get("sets", report["draws"])
    n = 0
    for v, row in enumerate(r["oracle"]["cells"]):
        abnormal = set(r["abnormal"][v])
        if any(not passed and t not in abnormal and point["pass_draws"][v][t] < sets
               for t, passed in enumerate(row)):
            n += 1
    return n


def crashing(report):
    """Versions with a failing run that crashed or timed out."""
    r = report["results"]
    return sum(1 for v, row in enumerate(r["oracle"]["cells"])
               if any(not row[t] for t in r["abnormal"][v]))


def accuracy(c):
    n = c["tp"] + c["fp"] + c["tn"] + c["fn"]
    return 100.0 * (c["tp"] + c["tn"]) / n if n else None


def main():
    studies = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "studies")
    reports = {p: r for p in PROGRAMS if (r := load(studies, p))}
    if not reports:
        sys.exit(f"no report under {studies}")
    budget = None
    rows = {}  # (strategy, pct) -> {program: (detected, versions, alarm, within)}
    for program, r in reports.items():
        budget = r.get("alarm_budget", 1.0)
        for e in r["results"]["evaluations"]:
            for p in e["points"]:
                rate = alarm_rate(p)
                rows.setdefault((e["strategy"], p["percentage"]), {})[program] = (
                    detected(p), len(p["per_version"]), rate, rate <= budget,
                    detected_beyond_crashes(r, p))
    programs = list(reports)
    print(f"Versions detected (a failing run flagged in at least one of the draws), in square brackets "
          f"those detected by a failing run that neither crashed nor timed out, and, in brackets, "
          f"alarms on the original's unseen runs (%); `-` where those alarms exceed {budget}% (the "
          f"detection does not count). Last column: versions detected within the budget, all programs.\n")
    print("| Detector | Training % | " + " | ".join(programs) + " | Within budget |")
    print("|---|---|" + "---|" * len(programs) + "---|")
    total_versions = sum(len(r["results"]["oracle"]["versions"]) for r in reports.values())
    for (strategy, pct), by in rows.items():
        cells, within, beyond = [], 0, 0
        for program in programs:
            if program not in by:
                cells.append("not run")
                continue
            d, n, rate, ok, b = by[program]
            cells.append(f"{d}/{n} [{b}] ({rate:.2f})" if ok else f"- ({d}/{n} [{b}], {rate:.2f})")
            within += d if ok else 0
            beyond += b if ok else 0
        print(f"| {strategy} | {pct} | " + " | ".join(cells) + f" | {within}/{total_versions} [{beyond}] |")
    print("\nVersions with a failing run that crashed or timed out (seen without any monitor, and "
          "flagged by every detector): " + ", ".join(f"{p} {crashing(r)}/{len(r['results']['oracle']['versions'])}"
                                                   for p, r in reports.items())
          + f"; in all {sum(crashing(r) for r in reports.values())}/{total_versions}.")
    print("\nKinds of invariant behind the alarms on the original's unseen runs at the largest training "
          "percentage (runs x draws or folds; a run counts once per kind):\n")
    print("| Detector | Program | Kinds (alarms) |")
    print("|---|---|---|")
    for program, r in reports.items():
        for b in r["results"]["kind_breakdowns"]:
            kinds = sorted(((k["original_flagged"], k["kind"]) for k in b["rows"] if k["original_flagged"]),
                           reverse=True)
            if kinds:
                print(f"| {b['strategy']} | {program} | " + ", ".join(f"{k} {n}" for n, k in kinds) + " |")
    print("\nBest run-level accuracy per program (any detector and percentage) against the all-pass "
          "accuracy:\n")
    print("| Program | Versions | Tests | All-pass accuracy (%) | Best accuracy (%) | Detector, training % |")
    print("|---|---|---|---|---|---|")
    for program, r in reports.items():
        oracle = r["results"]["oracle"]
        cells = [c for row in oracle["cells"] for c in row]
        base = 100.0 * sum(cells) / len(cells)
        best = max(((accuracy(p["overall"]), e["strategy"], p["percentage"])
                    for e in r["results"]["evaluations"] for p in e["points"]),
                   key=lambda t: (t[0] or 0.0, -t[2]))
        print(f"| {program} | {len(oracle['versions'])} | {len(oracle['tests'])} | {base:.2f} | "
              f"{best[0]:.2f} | {best[1]}, {best[2]} |")


if __name__ == "__main__":
    main()
