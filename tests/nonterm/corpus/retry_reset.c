/* retry_reset.c: a retry counter reset inside the loop (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, retry_reset.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long tries = 0, ok = 0;
    while (!ok && tries < 3) {
        tries++;
        if (tries == 2 && n > 0)
            tries = 0;
    }
    return tries;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
