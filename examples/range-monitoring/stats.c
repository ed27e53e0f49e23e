/* stats.c: summary statistics over a list of integers. */
#include "stats.h"

#define local static

local long total_of(const long *values, count_t n)
{
    long total = 0;
    count_t i;

    for (i = 0; i < n; i++)
        total += values[i];
    return total;
}

double mean_of(const long *values, count_t n)
{
    if (n == 0)
        return 0.0;
    return (double) total_of(values, n) / n;
}

long clamp(long v, long lo, long hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

void summarize(struct summary *s, const long *values, count_t n)
{
    count_t i;
    long lo, hi;

    lo = hi = n ? values[0] : 0;
    for (i = 1; i < n; i++) {
        if (values[i] < lo)
            lo = values[i];
        if (values[i] > hi)
            hi = values[i];
    }
    s->n = n;
    s->mean = mean_of(values, n);
    s->min = lo;
    s->max = hi;
}
