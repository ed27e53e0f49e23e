/* Return types written across lines are spelled on one line for the
   temporary, so the rewritten statement keeps its line. */
#include <stdio.h>

static char buffer[] = "text";

static char *
first (void) { { char * weft_ret; weft_ret = buffer + 0; return weft_ret; } }

static const char * /* a pointer
                       to constant text */
second (void)
{
    { const char * weft_ret; weft_ret = buffer + 1; return weft_ret; }
}

static unsigned
long
third (void) { { unsigned long weft_ret; weft_ret = 3UL + 0; return weft_ret; } }

static char * // a line comment between the star and the name
fourth (void) { { char * weft_ret; weft_ret = buffer + 2; return weft_ret; } }

int main(void)
{
    printf("%s %s %lu %s\n", first(), second(), third(), fourth());
    { int weft_ret; weft_ret = 0; return weft_ret; }
}
