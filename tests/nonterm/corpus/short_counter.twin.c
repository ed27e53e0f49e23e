/* short_counter.twin.c: a short counter can never reach 40000 -- fixed (class: signed-overflow).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, short_counter.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    int i;
    long s = 0;
    for (i = 0; i < 40000; i++)
        s += n;
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
