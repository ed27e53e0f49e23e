/* negative_shift.c: shifting a negative number right never reaches zero (class: signed-overflow).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, negative_shift.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long x = -n, s = 0;
    while (x != 0) {
        x >>= 1;
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
