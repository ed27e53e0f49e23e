#include <stdio.h>

typedef struct pair { int a, b; } pair;
typedef const char *cstr;

static int square(int x) { return x * x; }
static int identity(int x) { return x; }

/* A function returning a pointer to a function. */
static int (*pick(int k))(int)
{
    if (k)
        return square;
    return identity;
}

static pair make(int a, int b)
{
    pair p;
    p.a = a;
    p.b = b;
    return p;
}

static pair swap(pair p) { return make(p.b, p.a); }

static const char *name(int k)
{
    switch (k) {
    case 0:
        return "zero";
    case 1:
    case 2: /* fall through */
        k++;
    default:
        if (k > 2)
            return (k > 3 ? "many" : "three");
    }
    return "other";
}

static cstr label(int k)
{
    if (k < 0)
        goto negative;
    return k ? "pos" : "zero";
negative:
    return "neg";
}

static void say(const char *s)
{
    if (!s)
        return;
    printf("%s\n", s);
}

static void nothing(void) {}

static unsigned long kr(a, b)
    int a; long b;
{
    return a + b;
}

int main(void)
{
    pair p = swap(make(1, 2));
    say(name(2));
    say(label(-1));
    nothing();
    printf("%d %d %d %lu\n", pick(1)(3), p.a, p.b, kr(1, 2L));
    return 0;
}
