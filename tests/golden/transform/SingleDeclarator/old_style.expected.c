#include <stdio.h>

/* K&R parameter declarations are split like any other declaration. */
static int weigh(a, b, c, scale)
    int a; int b;          /* two counts */
    register int c; register int *scale;
{
    int total; int i;
    total = a + b + c;
    for (i = 0; i < 2; i++)
        total = total * *scale;
    return total;
}

static long span(from, to, width)
    long from;
         long to;
    unsigned width;
{
    return (to - from) * (long) width;
}

/* A pointer result: tree-sitter-c does not accept the definition with its
   parameter declarations, so the front end hides them and they stay as
   written. */
static char *advance(s, n, m)
    char *s;
    int n, m;
{
    return s + n + m;
}

int main(void)
{
    int scale = 2;
    printf("%d %ld %s\n", weigh(1, 2, 3, &scale), span(3L, 10L, 4u), advance("abcdef", 1, 2));
    return 0;
}
