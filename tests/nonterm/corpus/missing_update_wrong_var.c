/* missing_update_wrong_var.c: the loop increments the wrong variable (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, missing_update_wrong_var.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long i, j = 0, s = 0;
    for (i = 0; i < n; j++)
        s += i;
    return s + j;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
