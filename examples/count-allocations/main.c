/* A linked list and a string copy: the aspect counts their allocations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    int value;
    struct node *next;
};

static struct node *push(struct node *head, int value)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        exit(1);
    n->value = value;
    n->next = head;
    return n;
}

static char *copy(const char *s)
{
    char *c = malloc(strlen(s) + 1);
    return c ? strcpy(c, s) : NULL;
}

int main(void)
{
    struct node *list = NULL;
    char *name = copy("weft");
    int i, sum = 0;
    for (i = 1; i <= 5; i++)
        list = push(list, i);
    while (list != NULL) {
        struct node *next = list->next;
        sum += list->value;
        free(list);
        list = next;
    }
    printf("%s: sum %d\n", name, sum);
    free(name);
    return 0;
}
