/* signed_char_counter.c: a signed char counter can never exceed 127 (class: signed-overflow).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, signed_char_counter.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    signed char c;
    long s = 0;
    for (c = 0; c <= 127; c++)
        s += n;
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
