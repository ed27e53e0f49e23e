/* missing_update_nested.twin.c: the inner loop resets the outer counter -- fixed (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, missing_update_nested.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long i = 0, j, s = 0;
    while (i < n) {
        for (j = 0; j < 3; j++)
            s++;
        i = i + 1;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
