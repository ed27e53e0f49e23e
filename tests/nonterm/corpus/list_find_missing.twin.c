/* list_find_missing.twin.c: a search for a missing value in a circular list -- fixed (class: pointer-cycle).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, list_find_missing.c, is
 * the same program with the bug fixed; it terminates. */
#include <stdio.h>
#include <stdlib.h>
struct node {
    struct node *next;
    int value;
};

static struct node nodes[8];

static long run(long n)
{
    struct node *p = &nodes[0];
    int i;
    for (i = 0; i < 8; i++) {
        nodes[i].value = i;
        nodes[i].next = &nodes[(i + 1) % 8];
    }
    while (p->value != (int)n)
        p = p->next;
    return p->value;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
