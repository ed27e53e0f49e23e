/* index_not_advanced.twin.c: an index advanced only on matches -- fixed (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, index_not_advanced.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    static const int values[5] = {3, 1, 4, 1, 5};
    long i = 0, found = 0;
    while (i < 5) {
        if (values[i] == (int)n)
            found++;
        i++;
    }
    return found;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
