/* modular_walk.c: a modular walk that skips its target (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, modular_walk.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long x = 1;
    long s = 0;
    while (x != 0) {
        x = (x + 2) % (2 * n);
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
