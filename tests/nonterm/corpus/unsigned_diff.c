/* unsigned_diff.c: an unsigned difference wraps instead of going negative (class: unsigned-wrap).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, unsigned_diff.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    unsigned char left = (unsigned char)n;
    long s = 0;
    while (left != 1) {
        left -= 2;
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
