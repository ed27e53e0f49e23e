/* unsigned_countdown.twin.c: an unsigned counter counts down past zero -- fixed (class: unsigned-wrap).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, unsigned_countdown.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    int i;
    long s = 0;
    for (i = (int)n; i >= 0; i--)
        s++;
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
