/* add_zero_remainder.c: the increment is a remainder that becomes zero (class: adding-zero).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, add_zero_remainder.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long i = 1, s = 0;
    while (i < n * 10) {
        i += i % 1;
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
