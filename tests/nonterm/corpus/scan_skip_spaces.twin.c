/* scan_skip_spaces.twin.c: a scanner that does not advance over a space -- fixed (class: missing-update).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, scan_skip_spaces.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    static const char text[] = "ab cd:";
    const char *p = text;
    long letters = 0;
    while (*p != ':') {
        if (*p == ' ') {
            p++;
            continue;
        }
        letters++;
        p++;
    }
    return letters + n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
