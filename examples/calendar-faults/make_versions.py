#!/usr/bin/env python3
"""Writes versions/vN/cal.c: cal.c with one seeded fault each.

The study takes each faulty version as a whole source file, the shape
fault benchmarks ship; this script is how they were made. Each fault is a
textual replacement that must match exactly once."""

import pathlib
import sys

FAULTS = {
    # 2000 is not a leap year.
    "v1": ("    if (year % 400 == 0)\n        return 1;", "    if (year % 400 == 0)\n        return 0;"),
    # September has 31 days.
    "v2": ("{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}", "{31, 28, 31, 30, 31, 30, 31, 31, 31, 31, 30, 31}"),
    # Day 0 is accepted.
    "v3": ("return day >= 1 && day <= days_in_month", "return day >= 0 && day <= days_in_month"),
    # The century correction is off for years ending in 00.
    "v4": ("y * 365 + y / 4 - y / 100 + y / 400", "y * 365 + y / 4 - (y + 1) / 100 + y / 400"),
    # Crossing into the next month loses a day.
    "v5": ("            n -= left + 1;", "            n -= left;"),
    # Going back exactly to the end of the previous month fails.
    "v6": ("        if (-n < d) {", "        if (-n <= d) {"),
    # Weeks are counted from Sunday.
    "v7": ("(day_of_year(year, month, day) - 1 + first) / 7 + 1", "(day_of_year(year, month, day) + first) / 7 + 1"),
    # A month starting on Sunday is not indented.
    "v8": ("for (col = 0; col < first; col++)", "for (col = 0; col < first % 6; col++)"),
    # The difference loses its sign.
    "v9": ("    return ordinal(y2, m2, d2) - ordinal(y1, m1, d1);", "    return labs(ordinal(y2, m2, d2) - ordinal(y1, m1, d1));"),
    # February 29th only exists after the Gregorian reform of 1752.
    "v10": ("if (month == 2 && is_leap(year))", "if (month == 2 && is_leap(year) && year > 1752)"),
}


def main():
    here = pathlib.Path(__file__).resolve().parent
    original = (here / "cal.c").read_text()
    for name, (old, new) in FAULTS.items():
        if original.count(old) != 1:
            sys.exit(f"{name}: the text to replace occurs {original.count(old)} times")
        out = here / "versions" / name
        out.mkdir(parents=True, exist_ok=True)
        (out / "cal.c").write_text(original.replace(old, new))
    print(f"wrote {len(FAULTS)} versions")


if __name__ == "__main__":
    main()
