/* The other spellings of noreturn; none of these functions gets
   `return;` although their ends look reachable. */
#include <stdnoreturn.h>

void stop(void);

[[noreturn]] void leave(void)
{
    stop();
}

noreturn void quit(void)
{
    stop();
}

__declspec(noreturn) void bail(void)
{
    stop();
}

void __attribute__ ((__noreturn__)) halt(void)
{
    stop();
}

extern _Noreturn void later(void);

void later(void)
{
    stop();
}

/* A noreturn declaration after the definition counts too: gcc merges
   it into the definition. */
void early(void)
{
    stop();
}

_Noreturn void early(void);
