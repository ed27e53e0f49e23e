#include <stdio.h>

typedef unsigned long ulg;
typedef int (*handler)(int);

struct rec {
    ulg size;
    const char *name;
    handler h;
    unsigned flag : 3;
    struct { int k; } anon;
    struct rec *next;
    int vals[2];
};

static int twice(int v) { return 2 * v; }

int main(void)
{
    struct rec r, *p = &r;
    int x = 4;

    p->size = x * 2UL;
    p->name = "rec";
    r.h = twice;
    p->flag = 9;
    r.anon.k = 1;          /* member of an anonymous struct */
    r.anon = r.anon;       /* anonymous struct type: cannot be spelled */
    p->next = 0;
    p->vals[1] = 7;        /* not a member assignment */
    r.size = x;            /* right-hand side already a name */
    if (x > 2)
        r.size = r.size + p->h(x);
lbl:
    p->name = x > 100 ? "big" : "small";
    if (x++ < 5)
        goto lbl;
    (p++)->size = 1;       /* side-effecting left-hand side: skipped */
    printf("%lu %s %u %d %d\n", r.size, r.name, r.flag, r.anon.k, r.vals[1]);
    return 0;
}
