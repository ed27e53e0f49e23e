#!/usr/bin/env python3
"""Writes tests.txt: one test per line, the arguments of one `cal` run.

Seeded, so the file is the same on every machine; boundary dates (century
years, leap days, month ends, months starting on each weekday) are drawn
more often than a uniform choice would."""

import calendar
import datetime
import pathlib
import random

YEARS = [1, 4, 100, 400, 1600, 1700, 1752, 1800, 1900, 1999, 2000, 2001, 2004, 2023, 2024, 2100, 2400, 9999]


def year(rng):
    return rng.choice(YEARS) if rng.random() < 0.6 else rng.randint(1, 9999)


def date(rng):
    y = year(rng)
    m = rng.randint(1, 12)
    last = calendar.monthrange(y, m)[1]
    d = rng.choice([1, last, last - 1, rng.randint(1, last)])
    return y, m, d


def lines(rng):
    out = []
    for _ in range(30):
        out.append(f"leap {year(rng)}")
    for cmd in ["dow", "doy", "week"]:
        for _ in range(35):
            out.append("{} {} {} {}".format(cmd, *date(rng)))
    for _ in range(60):
        y, m, d = date(rng)
        last = calendar.monthrange(y, m)[1]
        n = rng.choice([last - d, -d, -(d - 1), 1, -1, 365, -366, rng.randint(-800, 800)])
        out.append(f"add {y} {m} {d} {n}")
    for _ in range(35):
        a, b = date(rng), date(rng)
        out.append("diff {} {} {} {} {} {}".format(*a, *b))
    for _ in range(25):
        y, m, _d = date(rng)
        out.append(f"month {y} {m}")
    # Months that start on a Sunday, and bad input.
    sundays = [(y, m) for y in range(2000, 2030) for m in range(1, 13) if datetime.date(y, m, 1).weekday() == 6]
    for y, m in rng.sample(sundays, 5):
        out.append(f"month {y} {m}")
    out += ["dow 2024 2 30", "dow 2023 2 29", "doy 2024 13 1", "add 2024 1 0 5", "diff 2024 1 1 2024 1 32",
            "leap 0", "leap 10000", "dow x 1 1", "add 9999 12 31 1", "add 1 1 1 -1"]
    return out


def main():
    here = pathlib.Path(__file__).resolve().parent
    tests = lines(random.Random(2026))
    (here / "tests.txt").write_text("".join(t + "\n" for t in tests))
    print(f"wrote {len(tests)} tests")


if __name__ == "__main__":
    main()
