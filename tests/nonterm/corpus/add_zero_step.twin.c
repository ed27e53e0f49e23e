/* add_zero_step.twin.c: the step is computed as zero (integer division) -- fixed (class: adding-zero).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, add_zero_step.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long i = 0, step = n / (n + 1) + 1;
    while (i < n)
        i += step;
    return i;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
