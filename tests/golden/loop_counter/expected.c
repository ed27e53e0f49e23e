#include <stdio.h>

/* Sums the first n integers. */
int sum(int n)
{
    int i, s = 0;
    int counter_1 = 0;
    for (i = 0; i < n; i++) {
        counter_1++;
        s += i;
    }
    printf("loop 1: %d\n", counter_1);
    while (n > 0) {
        n--;
    }
    return s;
}
