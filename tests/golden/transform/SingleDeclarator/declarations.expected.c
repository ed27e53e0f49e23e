/* Declarations with several declarators. */
#include <stdio.h>

static int g1 = 1; static int *g2 = &g1; static int g3[3];
typedef int T1; typedef int *T2;
struct point { int x, y; };
struct { int a; } anon1, anon2;
extern int ext1; extern int ext2(void);

static int init(void) { return 4; }

int main(void)
{
    int a = init(); int b = a + 1;   /* keep me */
        int c[3] = {1, 2, 3};
    const char *s = "x,y"; const char t = 'c';
    T1 u; T1 v;
    T2 w = &u; T2 (*fp)(void) = 0;
    int i; int j;
    for (int k = 0, m = 1; k < 3; k++, m++) /* for-init kept */
        a += k * m;
    i = j = 0;
    u = v = 1;
    printf("%d %d %d %s %c %d %d %d %d %d %d\n", a, b, c[2], s, t, i, j, *w, g3[0], g2 == &g1, fp == 0);
    return 0;
}
