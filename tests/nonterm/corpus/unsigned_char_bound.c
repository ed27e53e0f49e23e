/* unsigned_char_bound.c: an unsigned char counter can never reach 300 (class: unsigned-wrap).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, unsigned_char_bound.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    unsigned char c;
    long s = 0;
    for (c = 0; c < 300; c++)
        s += n;
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
