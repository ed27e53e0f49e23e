/* collatz_bug.twin.c: a Collatz step with the wrong multiplier cycles -- fixed (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, collatz_bug.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long x = n, s = 0;
    while (x != 1) {
        if (x % 2 == 0)
            x = x / 2;
        else
            x = 3 * x + 1;
        s++;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
