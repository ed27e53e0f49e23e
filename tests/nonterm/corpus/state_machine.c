/* state_machine.c: a state machine whose states never reach the final one (class: cyclic-state).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, state_machine.twin.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>

static long run(long n)
{
    int state = 0;
    long s = 0;
    while (state != 3) {
        switch (state) {
        case 0: state = 1; break;
        case 1: state = 2; break;
        default: state = 0; break;
        }
        s += n;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
