/* Functions declared noreturn never get a final `return;` (gcc warns
   about any `return` in them), however the declaration says so: on the
   definition or on an earlier prototype, as a keyword or an attribute. */
#include <stdio.h>
#include <stdlib.h>

static int rounds;

/* Noreturn by its prototype only; the analysis cannot see that
   `while (1 == 1)` never ends, the attribute says so. */
__attribute__((noreturn)) static void finish(int code);

static void finish(int code)
{
    printf("finish %d after %d rounds\n", code, rounds);
    fflush(stdout);
    while (1 == 1)
        exit(code);
}

_Noreturn static void fail(const char *why)
{
    printf("fail: %s\n", why);
    do
        finish(2);
    while (rounds < 0 || 1);
}

static void check(int ok) __attribute__ ((__noreturn__));

static void check(int ok)
{
    if (ok)
        finish(0);
    while (ok || 1)
        fail("check");
}

[[gnu::noreturn]] static void give_up(void)
{
    for (; rounds >= 0 || 1;)
        fail("give up");
}

/* Not noreturn: ends where control may arrive. */
static void count(void)
{
    rounds++;
    return;
}

int main(void)
{
    count();
    if (rounds > 5)
        give_up();
    check(1);
}
