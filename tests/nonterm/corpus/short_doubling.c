/* short_doubling.c: a short doubled overflows to zero below the bound (class: signed-overflow).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, short_doubling.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    short x = 1;
    long s = 0;
    while (x < 30000 + n) {
        x = (short)(x * 2);
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
