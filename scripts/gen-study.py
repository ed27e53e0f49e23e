#!/usr/bin/env python3
"""Writes a generated fault-detection study into DIR, the shape of the
fault benchmarks (a small one-file program, faulty versions shipped as
whole files, tests as argument lines, two range strategies):

    scripts/gen-study.py DIR [VERSIONS] [TESTS]

DIR/prog.c (about 170 lines), DIR/versions/vN/prog.c (VERSIONS faulty
versions, default 40: each the original with one operator mutated),
DIR/tests.txt (TESTS argument lines, default 1600) and DIR/study.toml
(ASCV3 and ASCV3_s). Seeded: the same files on every machine."""

import pathlib
import random
import re
import sys

PROGRAM = r"""/* A small arithmetic tool: `prog CMD A B [C]`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long gcd(long a, long b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b != 0) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static long lcm(long a, long b)
{
    long g = gcd(a, b);
    if (g == 0)
        return 0;
    return a / g * b;
}

static int is_prime(long n)
{
    long d;
    if (n < 2)
        return 0;
    for (d = 2; d * d <= n; d++) {
        if (n % d == 0)
            return 0;
    }
    return 1;
}

static long count_primes(long lo, long hi)
{
    long n;
    long count = 0;
    for (n = lo; n <= hi; n++) {
        if (is_prime(n))
            count = count + 1;
    }
    return count;
}

static const char *triangle(long a, long b, long c)
{
    if (a <= 0 || b <= 0 || c <= 0)
        return "invalid";
    if (a + b <= c || a + c <= b || b + c <= a)
        return "invalid";
    if (a == b && b == c)
        return "equilateral";
    if (a == b || b == c || a == c)
        return "isosceles";
    if (a * a + b * b == c * c || a * a + c * c == b * b || b * b + c * c == a * a)
        return "right";
    return "scalene";
}

static int is_leap(long year)
{
    if (year % 400 == 0)
        return 1;
    if (year % 100 == 0)
        return 0;
    return year % 4 == 0;
}

static long digit_sum(long n, long base)
{
    long sum = 0;
    if (n < 0)
        n = -n;
    if (base < 2)
        return -1;
    while (n > 0 && base >= 2) {
        sum = sum + n % base;
        n = n / base;
    }
    return sum;
}

static long collatz(long n)
{
    long steps = 0;
    if (n < 1)
        return -1;
    while (n != 1 && steps < 1000) {
        if (n % 2 == 0)
            n = n / 2;
        else
            n = 3 * n + 1;
        steps = steps + 1;
    }
    return steps;
}

static long clamp(long v, long lo, long hi)
{
    if (lo > hi) {
        long t = lo;
        lo = hi;
        hi = t;
    }
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

static long power_mod(long base, long exp, long mod)
{
    long result = 1;
    if (mod <= 1)
        return 0;
    base = base % mod;
    if (base < 0)
        base = base + mod;
    while (exp > 0) {
        if (exp % 2 == 1)
            result = result * base % mod;
        base = base * base % mod;
        exp = exp / 2;
    }
    return result;
}

int main(int argc, char **argv)
{
    long a, b, c;
    if (argc < 4) {
        fprintf(stderr, "usage: prog CMD A B [C]\n");
        return 2;
    }
    a = atol(argv[2]);
    b = atol(argv[3]);
    c = argc > 4 ? atol(argv[4]) : 0;
    if (strcmp(argv[1], "gcd") == 0)
        printf("%ld %ld\n", gcd(a, b), lcm(a, b));
    else if (strcmp(argv[1], "primes") == 0)
        printf("%ld\n", count_primes(a, b));
    else if (strcmp(argv[1], "tri") == 0)
        printf("%s\n", triangle(a, b, c));
    else if (strcmp(argv[1], "leap") == 0)
        printf("%d %d\n", is_leap(a), is_leap(b));
    else if (strcmp(argv[1], "digits") == 0)
        printf("%ld\n", digit_sum(a, b));
    else if (strcmp(argv[1], "collatz") == 0)
        printf("%ld %ld\n", collatz(a), collatz(b));
    else if (strcmp(argv[1], "clamp") == 0)
        printf("%ld\n", clamp(a, b, c));
    else if (strcmp(argv[1], "pow") == 0)
        printf("%ld\n", power_mod(a, b, c));
    else {
        fprintf(stderr, "unknown command %s\n", argv[1]);
        return 2;
    }
    return 0;
}
"""

# Binary operators and constants a mutant changes, each into its neighbours.
MUTATIONS = {
    " < ": [" <= ", " > "],
    " <= ": [" < ", " >= "],
    " > ": [" >= ", " < "],
    " >= ": [" > ", " <= "],
    " == ": [" != "],
    " != ": [" == "],
    " && ": [" || "],
    " || ": [" && "],
    " + 1": [" + 2", " - 1"],
    " % 2": [" % 3"],
    " / 2": [" / 3"],
}


def loop_control(text, at):
    """Whether the operator at `at` is on a line controlling a loop: a
    mutant there may never stop, and a study of hangs measures timeouts,
    not the harness."""
    line = text[text.rfind("\n", 0, at) + 1 : text.find("\n", at)]
    return "while" in line or "for (" in line or "steps" in line


def mutants(program, count, rng):
    """`count` distinct single-operator mutants of the program's functions
    (the part after the includes), none in a loop's control."""
    body = program.index("static long gcd")
    sites = [
        (m.start(), m.group(0), new)
        for pattern, news in MUTATIONS.items()
        for m in re.finditer(re.escape(pattern), program[body:])
        if not loop_control(program[body:], m.start())
        for new in news
    ]
    chosen = rng.sample(sites, min(count, len(sites)))
    return [
        program[: body + at] + new + program[body + at + len(old) :]
        for at, old, new in chosen
    ]


def test_line(rng):
    cmd = rng.choice(["gcd", "primes", "tri", "leap", "digits", "collatz", "clamp", "pow"])
    small = lambda: rng.choice([0, 1, 2, 3, rng.randint(-20, 20), rng.randint(1, 500)])
    if cmd == "primes":
        lo = rng.randint(-5, 300)
        return f"{cmd} {lo} {lo + rng.randint(0, 200)}"
    if cmd == "leap":
        years = [100, 400, 1900, 2000, 2023, 2024]
        pick = lambda: rng.choice(years) if rng.random() < 0.5 else rng.randint(1, 3000)
        return f"{cmd} {pick()} {pick()}"
    return f"{cmd} {small()} {small()} {small()}"


def study_toml(versions):
    lines = [
        "# Generated by scripts/gen-study.py: a one-file program, faulty",
        "# versions as whole files, tests as argument lines, two strategies.",
        "[study]",
        'name = "generated"',
        'source = "prog.c"',
        "build = ['gcc $CFLAGS -o prog prog.c']",
        'cflags = "-O1"',
        'work_dir = "work"',
        'out_dir = "report"',
        "seed = 1",
        "draws = 5",
        "percentages = [10, 50, 100]",
        "timeout_secs = 2",
        "",
        "[study.test_lines]",
        'file = "tests.txt"',
        "cmd = '\"$WEFT_BUILD/prog\" {}'",
        'prefix = "t"',
        "",
        "[[version]]",
        'name = "original"',
    ]
    for v in range(1, versions + 1):
        lines += ["", "[[version]]", f'name = "v{v}"', f'source = "versions/v{v}/prog.c"']
    for name, aspect in [("ASCV3", "ascv3"), ("ASCV3_s", "ascv3_s")]:
        lines += [
            "",
            "[[strategy]]",
            f'name = "{name}"',
            'kind = "weave"',
            f'aspect = "aspects/{aspect}.lara"',
            "args = { onlyPrimitives = true }",
        ]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    versions = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    tests = int(sys.argv[3]) if len(sys.argv) > 3 else 1600
    rng = random.Random(16)
    out.mkdir(parents=True, exist_ok=True)
    (out / "prog.c").write_text(PROGRAM)
    for v, text in enumerate(mutants(PROGRAM, versions, rng), start=1):
        (out / "versions" / f"v{v}").mkdir(parents=True, exist_ok=True)
        (out / "versions" / f"v{v}" / "prog.c").write_text(text)
    (out / "tests.txt").write_text("".join(test_line(rng) + "\n" for _ in range(tests)))
    (out / "study.toml").write_text(study_toml(versions))


if __name__ == "__main__":
    main()
