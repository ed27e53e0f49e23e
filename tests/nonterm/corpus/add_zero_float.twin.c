/* add_zero_float.twin.c: a float increment lost to rounding -- fixed (class: adding-zero).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, add_zero_float.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    double x = 16777216.0;
    long s = 0;
    while (x < 16777216.0 + (double)n) {
        x += 1.0;
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
