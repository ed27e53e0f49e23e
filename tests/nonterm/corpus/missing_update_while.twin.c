/* missing_update_while.twin.c: the counter is never incremented -- fixed (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, missing_update_while.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long i = 0, s = 0;
    while (i < n) {
        s += 2;
        i++;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
