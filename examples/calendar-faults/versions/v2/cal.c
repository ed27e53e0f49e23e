/* cal: date arithmetic on the proleptic Gregorian calendar.
 *
 *   cal leap Y             "leap" or "common"
 *   cal dow Y M D          the weekday's name
 *   cal doy Y M D          the day of the year, 1..366
 *   cal add Y M D N        the date N days later (N may be negative)
 *   cal diff Y M D Y M D   days from the first date to the second
 *   cal week Y M D         the week of the year, weeks starting on Monday
 *   cal month Y M          the month as a grid, weeks starting on Monday
 *
 * Dates run from 0001-01-01 to 9999-12-31; anything else is an error
 * (exit status 2). This program is the original of the calendar-faults
 * example study; versions/ holds its faulty versions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[7] = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
};

static int is_leap(int year)
{
    if (year % 400 == 0)
        return 1;
    if (year % 100 == 0)
        return 0;
    return year % 4 == 0;
}

static int days_in_month(int year, int month)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 31, 31, 30, 31};
    if (month == 2 && is_leap(year))
        return 29;
    return days[month - 1];
}

static int valid_date(int year, int month, int day)
{
    if (year < 1 || year > 9999 || month < 1 || month > 12)
        return 0;
    return day >= 1 && day <= days_in_month(year, month);
}

static int day_of_year(int year, int month, int day)
{
    int n = day;
    int m;
    for (m = 1; m < month; m++)
        n += days_in_month(year, m);
    return n;
}

/* Days since 0001-01-01, a Monday. */
static long ordinal(int year, int month, int day)
{
    long y = year - 1;
    return y * 365 + y / 4 - y / 100 + y / 400 + day_of_year(year, month, day) - 1;
}

/* 0 for Monday to 6 for Sunday. */
static int day_of_week(int year, int month, int day)
{
    return (int)(ordinal(year, month, day) % 7);
}

/* The date `n` days after (or before, for negative `n`) the given one;
 * returns 0 when it leaves the supported range. */
static int add_days(int *year, int *month, int *day, long n)
{
    int y = *year, m = *month, d = *day;
    while (n > 0) {
        int left = days_in_month(y, m) - d;
        if (n <= left) {
            d += (int)n;
            n = 0;
        } else {
            n -= left + 1;
            d = 1;
            if (++m > 12) {
                m = 1;
                y++;
            }
        }
    }
    while (n < 0) {
        if (-n < d) {
            d += (int)n;
            n = 0;
        } else {
            n += d;
            if (--m < 1) {
                m = 12;
                y--;
            }
            if (y < 1)
                return 0;
            d = days_in_month(y, m);
        }
    }
    if (!valid_date(y, m, d))
        return 0;
    *year = y;
    *month = m;
    *day = d;
    return 1;
}

static long diff_days(int y1, int m1, int d1, int y2, int m2, int d2)
{
    return ordinal(y2, m2, d2) - ordinal(y1, m1, d1);
}

/* Week 1 holds January 1st; weeks start on Monday. */
static int week_of_year(int year, int month, int day)
{
    int first = day_of_week(year, 1, 1);
    return (day_of_year(year, month, day) - 1 + first) / 7 + 1;
}

static void print_month(int year, int month)
{
    int first = day_of_week(year, month, 1);
    int days = days_in_month(year, month);
    int col, d;
    printf("%04d-%02d\nMo Tu We Th Fr Sa Su\n", year, month);
    for (col = 0; col < first; col++)
        printf("   ");
    for (d = 1; d <= days; d++) {
        printf("%2d%s", d, (col % 7 == 6 || d == days) ? "\n" : " ");
        col++;
    }
}

static int number(const char *text, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* Reads Y M D from argv[at..at+2]. */
static int date_args(char **argv, int at, int *y, int *m, int *d)
{
    long v[3];
    int i;
    for (i = 0; i < 3; i++)
        if (!number(argv[at + i], -99999, 99999, &v[i]))
            return 0;
    *y = (int)v[0];
    *m = (int)v[1];
    *d = (int)v[2];
    return valid_date(*y, *m, *d);
}

static int usage(void)
{
    fprintf(stderr, "usage: cal leap|dow|doy|add|diff|week|month ARGS...\n");
    return 2;
}

int main(int argc, char **argv)
{
    int y, m, d, y2, m2, d2;
    long n;
    if (argc < 3)
        return usage();
    if (strcmp(argv[1], "leap") == 0 && argc == 3) {
        if (!number(argv[2], 1, 9999, &n))
            return usage();
        puts(is_leap((int)n) ? "leap" : "common");
    } else if (strcmp(argv[1], "month") == 0 && argc == 4) {
        if (!date_args((char *[]){argv[2], argv[3], "1"}, 0, &y, &m, &d))
            return usage();
        print_month(y, m);
    } else if (argc < 5 || !date_args(argv, 2, &y, &m, &d)) {
        return usage();
    } else if (strcmp(argv[1], "dow") == 0 && argc == 5) {
        puts(names[day_of_week(y, m, d)]);
    } else if (strcmp(argv[1], "doy") == 0 && argc == 5) {
        printf("%d\n", day_of_year(y, m, d));
    } else if (strcmp(argv[1], "week") == 0 && argc == 5) {
        printf("%d\n", week_of_year(y, m, d));
    } else if (strcmp(argv[1], "add") == 0 && argc == 6) {
        if (!number(argv[5], -3650000, 3650000, &n) || !add_days(&y, &m, &d, n)) {
            fprintf(stderr, "cal: out of range\n");
            return 2;
        }
        printf("%04d-%02d-%02d\n", y, m, d);
    } else if (strcmp(argv[1], "diff") == 0 && argc == 8) {
        if (!date_args(argv, 5, &y2, &m2, &d2))
            return usage();
        printf("%ld\n", diff_days(y, m, d, y2, m2, d2));
    } else {
        return usage();
    }
    return 0;
}
