/* Declarations with several declarators. */
#include <stdio.h>

static int g1 = 1, *g2 = &g1, g3[3];
typedef int T1, *T2;
struct point { int x, y; };
struct { int a; } anon1, anon2;
extern int ext1, ext2(void);

static int init(void) { return 4; }

int main(void)
{
    int a = init(), b = a + 1,   /* keep me */
        c[3] = {1, 2, 3};
    const char *s = "x,y", t = 'c';
    T1 u,v;
    T2 w = &u, (*fp)(void) = 0;
    int i, j;
    for (int k = 0, m = 1; k < 3; k++, m++) /* for-init kept */
        a += k * m;
    i = j = 0;
    u = v = 1;
    printf("%d %d %d %s %c %d %d %d %d %d %d\n", a, b, c[2], s, t, i, j, *w, g3[0], g2 == &g1, fp == 0);
    return 0;
}
