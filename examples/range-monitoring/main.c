/* main.c: prints the summary of the integers given on the command line,
 * each first clamped to [-100, 100]. */
#include <stdio.h>
#include <stdlib.h>
#include "stats.h"

int main(int argc, char **argv)
{
    long values[64];
    count_t n = 0;
    struct summary s;
    int i;

    for (i = 1; i < argc && n < 64; i++) {
        long v = strtol(argv[i], NULL, 10);
        values[n] = clamp(v, -100, 100);
        n++;
    }
    summarize(&s, values, n);
    printf("n=%lu mean=%.2f min=%ld max=%ld\n", s.n, s.mean, s.min, s.max);
    return 0;
}
