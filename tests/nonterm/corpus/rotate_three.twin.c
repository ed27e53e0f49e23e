/* rotate_three.twin.c: three variables rotate and never agree -- fixed (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, rotate_three.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long a = 1, b = 2, c = n + 3, t;
    while (a + b < c) {
        t = a;
        a = b;
        b = c;
        c = t + b;
    }
    return a;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
