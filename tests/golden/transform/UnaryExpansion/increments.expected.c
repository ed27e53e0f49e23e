#include <stdio.h>

struct counter { int n; };

int main(void)
{
    int i = 0, x, a[4] = {0};
    char *p = "hello";
    struct counter c = {5}, *pc = &c;

    i = i + 1;
    i = i - 1;
    (i) = (i) + 1;
    p = p + 1;
    pc->n = pc->n - 1;
    c.n = c.n + 1;
    a[i] = a[i] + 1;
    for (x = 0; x < 3; x = x + 1)
        ;
    for (x = 0; x < 3; x++, i++)   /* comma update: untouched */
        ;
    x = i++;            /* part of an expression: untouched */
    a[i++]++;           /* side-effecting operand: skipped */
    while (i-- > 0)
        a[0] = a[0] - 1;
    printf("%d %d %c %d %d\n", i, x, *p, c.n, a[0]);
    return 0;
}
