/* binary_search_stuck.twin.c: a binary search whose low bound stops moving -- fixed (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, binary_search_stuck.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long lo = 0, hi = n * 10, key = n * 10 - 1, mid;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (mid < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
