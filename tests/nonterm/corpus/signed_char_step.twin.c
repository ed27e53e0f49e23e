/* signed_char_step.twin.c: a signed char stepping by 4 wraps around and skips the odd target -- fixed (class: signed-overflow).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, signed_char_step.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    signed char c = 0;
    long s = 0;
    while (c != 100 + (n > 1000)) {
        c = (signed char)(c + 4);
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
