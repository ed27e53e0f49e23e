/* missing_update_continue.twin.c: a `continue` skips the increment -- fixed (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, missing_update_continue.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long i = 0, odd = 0;
    while (i < n) {
        if (i % 2 == 0) {
            i++;
            continue;
        }
        odd++;
        i++;
    }
    return odd;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
