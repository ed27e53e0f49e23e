/* list_self_loop.twin.c: a node inserted twice points to itself -- fixed (class: pointer-cycle).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, list_self_loop.c, is
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
    struct node *head = &nodes[0], *p;
    long len = 0;
    nodes[0].next = &nodes[1];
    nodes[1].next = NULL;
    for (p = head; p; p = p->next)
        len += n;
    return len;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
