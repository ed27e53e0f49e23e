/* add_zero_shift.c: a shift that is meant to double a zero stride (class: adding-zero).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, add_zero_shift.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    unsigned long stride = 0, pos = 0;
    while (pos < (unsigned long)n) {
        pos += stride;
        stride <<= 1;
    }
    return (long)pos;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
