/* Return types written across lines are spelled on one line for the
   temporary, so the rewritten statement keeps its line. */
#include <stdio.h>

static char buffer[] = "text";

static char *
first (void) { return buffer + 0; }

static const char * /* a pointer
                       to constant text */
second (void)
{
    return buffer + 1;
}

static unsigned
long
third (void) { return 3UL + 0; }

static char * // a line comment between the star and the name
fourth (void) { return buffer + 2; }

int main(void)
{
    printf("%s %s %lu %s\n", first(), second(), third(), fourth());
    return 0;
}
