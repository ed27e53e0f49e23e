/* Non-void functions whose end may be reached get no return (no value
   would be correct); the pass reports them. `main` falling off its end
   returns 0. */
int sign(int x)
{
    if (x > 0)
        return 1;
    if (x < 0)
        return -1;
}

int spin(int x)
{
    for (;;)
        if (x++ > 10)
            return x + 0;
}

int pick(int x)
{
    if (x)
        return 2;
    else
        return x;
}

int platform(void)
{
#if defined __GNUC__
    return 1;
#elif defined _MSC_VER
    return 2;
#else
#  error "unknown compiler"
#endif
}

int variant(void)
{
#ifdef __GNUC__
    return 1;
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
