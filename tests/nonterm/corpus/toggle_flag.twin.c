/* toggle_flag.twin.c: a flag toggled on every pass prevents the exit -- fixed (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, toggle_flag.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    int flag = 0;
    long i = 0;
    while (!(flag && i >= n)) {
        flag = !flag;
        if (flag)
            i++;
    }
    return i;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
