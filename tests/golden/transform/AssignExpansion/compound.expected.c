#include <stdio.h>

struct inner { int b; };
struct outer { struct inner a; int arr[4]; };

static int f(void) { return 1; }
static struct outer *get(struct outer *o) { return o; }

int main(void)
{
    char c = 'a';
    int i = 0, j = 10, n = 8, a[8] = {0};
    unsigned u = 1;
    int *p = a;
    double d = 2.5;
    struct outer s = {{1}, {0}}, *ps = &s;
    volatile int v = 0;

    c = c + (1);
    u = u << (3);
    u = u >> (1);
    d = d * (2);              /* comment after */
    i = i | (0x10 ^ 1);
    i = i - (j - 2);
    p = p + (2);
    s.a.b = s.a.b * (3);
    ps->arr[i % 4 + 1] = ps->arr[i % 4 + 1] | (4);
    a[(i + 1) & 7] = a[(i + 1) & 7] + (5);
    for (i = 0; i < n; i = i + (2), j = j - (1))
        a[i & 7] = a[i & 7] ^ (i);
    a[i++ & 7] += 1;     /* side-effecting subscript: untouched */
    *p++ -= 2;           /* side-effecting pointer: untouched */
    get(&s)->a.b += 1;   /* call in the left-hand side: untouched */
    v += 1;              /* volatile: untouched */
    j += i = i + (1);         /* inner one expanded only */
    i = f() + (j = j % (3));
    printf("%c %u %g %d %d %d %d\n", c, u, d, i, j, s.a.b, *p);
    return 0;
}
