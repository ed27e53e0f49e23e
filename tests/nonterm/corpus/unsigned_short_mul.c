/* unsigned_short_mul.c: an unsigned short doubled wraps to zero and stays below the bound (class: unsigned-wrap).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, unsigned_short_mul.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    unsigned short x = 1;
    long s = 0;
    while (x < 70000u - (unsigned)n) {
        x = (unsigned short)(x * 2);
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
