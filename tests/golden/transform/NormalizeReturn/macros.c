/* Noreturn written through project macros, as gnulib and binutils do:
   the front end blanks the macros, their definitions say noreturn. */
#include <stdio.h>
#include <stdlib.h>

#define _GL_ATTRIBUTE_NORETURN __attribute__ ((__noreturn__))
#define ATTRIBUTE_NORETURN _GL_ATTRIBUTE_NORETURN
#define local static

local ATTRIBUTE_NORETURN void die (const char *msg);
local void warn (const char *msg) _GL_ATTRIBUTE_NORETURN;

local void
die (const char *msg)
{
    printf ("fatal: %s\n", msg);
    fflush (stdout);
    while (msg || 1)
        _Exit (0);
}

local void
warn (const char *msg)
{
    printf ("warning: %s\n", msg);
    die (msg);
}

local void
note (const char *msg)
{
    printf ("note: %s\n", msg);
}

int main(void)
{
    note ("start");
    warn ("stop");
}
