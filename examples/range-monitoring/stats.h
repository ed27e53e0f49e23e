/* stats.h: a tiny statistics library used by the range-monitoring example. */
#ifndef STATS_H
#define STATS_H

typedef unsigned long count_t;

struct summary {
    count_t n;
    double mean;
    long min, max;
};

double mean_of(const long *values, count_t n);
long clamp(long v, long lo, long hi);
void summarize(struct summary *s, const long *values, count_t n);

#endif
