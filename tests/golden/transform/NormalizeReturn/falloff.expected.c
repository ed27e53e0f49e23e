/* Non-void functions whose end may be reached get no return (no value
   would be correct); the pass reports them. `main` falling off its end
   returns 0. */
int sign(int x)
{
    if (x > 0)
        { int weft_ret; weft_ret = 1; return weft_ret; }
    if (x < 0)
        { int weft_ret; weft_ret = -1; return weft_ret; }
}

int spin(int x)
{
    for (;;)
        if (x++ > 10)
            { int weft_ret; weft_ret = x + 0; return weft_ret; }
}

int pick(int x)
{
    if (x)
        { int weft_ret; weft_ret = 2; return weft_ret; }
    else
        return x;
}

int platform(void)
{
#if defined __GNUC__
    { int weft_ret; weft_ret = 1; return weft_ret; }
#elif defined _MSC_VER
    { int weft_ret; weft_ret = 2; return weft_ret; }
#else
#  error "unknown compiler"
#endif
}

int variant(void)
{
#ifdef __GNUC__
    { int weft_ret; weft_ret = 1; return weft_ret; }
#endif
}

long twice(long x)
{
    x *= 2;
}

int main(void)
{
    sign(1);
}
