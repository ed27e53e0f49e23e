#include <stdio.h>

/* Sums the first n integers. */
int sum(int n)
{
    int i, s = 0;
    for (i = 0; i < n; i++)
        s += i;
    while (n > 0) {
        n--;
    }
    return s;
}
