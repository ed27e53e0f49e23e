/* swap_cycle.c: two variables swap forever (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, swap_cycle.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long a = n, b = n + 1, t;
    while (a != b) {
        t = a;
        a = b;
        b = t;
    }
    return a;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
