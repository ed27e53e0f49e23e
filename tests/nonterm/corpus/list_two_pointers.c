/* list_two_pointers.c: two cursors walking a cycle never meet the end (class: pointer-cycle).
 * Non-termination corpus, tests/nonterm_corpus.rs. The twin, list_two_pointers.twin.c, is
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
    struct node *a = &nodes[0], *b = &nodes[1];
    long steps = 0;
    int i;
    for (i = 0; i < 8; i++)
        nodes[i].next = &nodes[(i + 1) % 4];
    while (a != NULL && b != NULL && a != b->next->next) {
        a = a->next;
        b = b->next;
        steps++;
    }
    return steps + n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 5;
    printf("%ld\n", run(n));
    return 0;
}
