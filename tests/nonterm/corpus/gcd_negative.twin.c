/* gcd_negative.twin.c: a subtraction gcd given a negative operand -- fixed (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, gcd_negative.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long a = n, b = 4;
    while (a != b) {
        if (a > b)
            a = a - b;
        else
            b = b - a;
    }
    return a;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
