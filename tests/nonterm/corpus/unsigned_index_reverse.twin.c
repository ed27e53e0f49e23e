/* unsigned_index_reverse.twin.c: a reverse scan by twos with an unsigned short index -- fixed (class: unsigned-wrap).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, unsigned_index_reverse.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    int i;
    long s = 0;
    for (i = (int)(n * 2); i >= 0; i -= 2)
        s += i;
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
