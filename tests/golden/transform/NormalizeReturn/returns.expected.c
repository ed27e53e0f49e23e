#include <stdio.h>

typedef struct pair { int a, b; } pair;
typedef const char *cstr;

static int square(int x) { { int weft_ret; weft_ret = x * x; return weft_ret; } }
static int identity(int x) { return x; }

/* A function returning a pointer to a function. */
static int (*pick(int k))(int)
{
    if (k)
        { int (*weft_ret)(int); weft_ret = square; return weft_ret; }
    { int (*weft_ret)(int); weft_ret = identity; return weft_ret; }
}

static pair make(int a, int b)
{
    pair p;
    p.a = a;
    p.b = b;
    return p;
}

static pair swap(pair p) { { pair weft_ret; weft_ret = make(p.b, p.a); return weft_ret; } }

static const char *name(int k)
{
    switch (k) {
    case 0:
        { const char *weft_ret; weft_ret = "zero"; return weft_ret; }
    case 1:
    case 2: /* fall through */
        k++;
    default:
        if (k > 2)
            { const char *weft_ret; weft_ret = (k > 3 ? "many" : "three"); return weft_ret; }
    }
    { const char *weft_ret; weft_ret = "other"; return weft_ret; }
}

static cstr label(int k)
{
    if (k < 0)
        goto negative;
    { cstr weft_ret; weft_ret = k ? "pos" : "zero"; return weft_ret; }
negative:
    { cstr weft_ret; weft_ret = "neg"; return weft_ret; }
}

static void say(const char *s)
{
    if (!s)
        return;
    printf("%s\n", s);
    return;
}

static void nothing(void) {return; }

static unsigned long kr(a, b)
    int a; long b;
{
    { unsigned long weft_ret; weft_ret = a + b; return weft_ret; }
}

int main(void)
{
    pair p = swap(make(1, 2));
    say(name(2));
    say(label(-1));
    nothing();
    printf("%d %d %d %lu\n", pick(1)(3), p.a, p.b, kr(1, 2L));
    { int weft_ret; weft_ret = 0; return weft_ret; }
}
