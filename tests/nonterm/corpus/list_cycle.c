/* list_cycle.c: a linked list whose last node points back into it (class: pointer-cycle).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, list_cycle.twin.c, is
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
    struct node *p;
    long len = 0;
    int i;
    for (i = 0; i < 7; i++)
        nodes[i].next = &nodes[i + 1];
    nodes[7].next = &nodes[n % 8];
    for (p = &nodes[0]; p != NULL; p = p->next)
        len++;
    return len;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
