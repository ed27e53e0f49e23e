/* index_chain.c: following an index table that contains a cycle (class: pointer-cycle).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, index_chain.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    static const int next[6] = {1, 2, 3, 1, 5, -1};
    long at = 0, s = 0;
    while (at != -1) {
        at = next[at];
        s += n;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
