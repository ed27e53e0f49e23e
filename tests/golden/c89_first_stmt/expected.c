int scale(int x, int k)
{
    int r;
    /* keep declarations first */
    long t = x;
    monitor("x", x);
    monitor("k", k);
    r = (int) (t * k);
    return r;
}
