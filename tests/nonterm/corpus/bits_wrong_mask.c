/* bits_wrong_mask.c: clearing the wrong bit leaves the set bits in place (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, bits_wrong_mask.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    unsigned long bits = (unsigned long)n | 8u;
    long count = 0;
    while (bits != 0) {
        bits &= ~(bits & 0u);
        count++;
    }
    return count;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
