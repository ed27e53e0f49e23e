/* add_zero_float.c: a float increment lost to rounding (class: adding-zero).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, add_zero_float.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    float x = 16777216.0f;
    long s = 0;
    while (x < 16777216.0f + (float)n) {
        x += 1.0f;
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
