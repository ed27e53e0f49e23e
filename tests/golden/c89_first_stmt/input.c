int scale(int x, int k)
{
    int r;
    /* keep declarations first */
    long t = x;
    r = (int) (t * k);
    return r;
}
