/* missing_update_do.twin.c: a do-while whose counter is updated in a dead branch -- fixed (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, missing_update_do.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long k = n, s = 0;
    do {
        s += k;
        if (k > 0)
            k--;
    } while (k > 0);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
