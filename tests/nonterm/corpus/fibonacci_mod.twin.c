/* fibonacci_mod.twin.c: a Fibonacci sequence modulo a number that never hits the target -- fixed (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, fibonacci_mod.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    long a = 0, b = 1, t;
    long s = 0;
    while (a != 3 || n < 0) {
        t = (a + b) % 5;
        a = b;
        b = t;
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
