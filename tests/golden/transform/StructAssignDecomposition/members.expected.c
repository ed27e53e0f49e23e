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

    { ulg weft_member; weft_member = x * 2UL; p->size = weft_member; }
    { const char *weft_member; weft_member = "rec"; p->name = weft_member; }
    r.h = twice;
    { unsigned weft_member; weft_member = 9; p->flag = weft_member; }
    { int weft_member; weft_member = 1; r.anon.k = weft_member; }          /* member of an anonymous struct */
    r.anon = r.anon;       /* anonymous struct type: cannot be spelled */
    { struct rec *weft_member; weft_member = 0; p->next = weft_member; }
    p->vals[1] = 7;        /* not a member assignment */
    r.size = x;            /* right-hand side already a name */
    if (x > 2)
        { ulg weft_member; weft_member = r.size + p->h(x); r.size = weft_member; }
lbl:
    { const char *weft_member; weft_member = x > 100 ? "big" : "small"; p->name = weft_member; }
    if (x++ < 5)
        goto lbl;
    (p++)->size = 1;       /* side-effecting left-hand side: skipped */
    printf("%lu %s %u %d %d\n", r.size, r.name, r.flag, r.anon.k, r.vals[1]);
    return 0;
}
