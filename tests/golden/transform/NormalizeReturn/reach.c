/* `return;` is added to a void function only where control can reach
   its closing brace. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int total;

static void add(int x)
{
    total += x;
}

static void maybe_exit(int code)
{
    if (code)
        exit(code);
}

static void forever(void)
{
    for (;;) {
        if (++total > 10)
            return;
    }
}

static void until_break(void)
{
    while (1) {
        if (++total > 20)
            break;
    }
}

static void do_forever(void)
{
    do {
        if (++total > 30)
            return;
        for (;;)
            break;
    } while (1);
}

static void branches(int x)
{
    if (x > 0) {
        add(x);
        return;
    } else if (x < 0) {
        longjmp(env, 1);
    } else
        return;
}

static void half(int x)
{
    if (x)
        return;
    else
        add(1);
}

static void labelled(int x)
{
    if (x)
        goto done;
    add(2);
done:
    return;
}

static void cases(int x)
{
    switch (x) {
    case 0:
        add(1);
        return;
    default:
        return;
    }
}

static void cases_break(int x)
{
    switch (x) {
    case 0:
        break;
    default:
        return;
    }
}

static void no_default(int x)
{
    switch (x) {
    case 0:
        return;
    }
}

static void switch_in_loop(void)
{
    for (;;) {
        switch (total++ % 3) {
        case 2:
            if (total > 40)
                return;
            break;
        default:
            break;
        }
    }
}

static void configured(void)
{
#ifdef NEVER_DEFINED
    add(100);
    return;
#else
    add(3);
    return;
#endif
}

static void optional(void)
{
    add(4);
#ifdef NEVER_DEFINED
    return;
#endif
}

static void empty(void) {}

int main(void)
{
    add(1);
    maybe_exit(0);
    forever();
    until_break();
    do_forever();
    if (setjmp(env) == 0)
        branches(-1);
    branches(1);
    half(0);
    labelled(0);
    cases(0);
    cases_break(1);
    no_default(0);
    switch_in_loop();
    configured();
    optional();
    empty();
    printf("%d\n", total);
    return 0;
}
