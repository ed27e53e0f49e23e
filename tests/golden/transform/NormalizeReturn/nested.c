/* GNU C nested functions: each return belongs to its own function. */
int outer(int n)
{
    int (*inner(void))(int)
    {
        int leaf(int v) { return v + n; }
        return leaf;
    }
    return inner()(n) * 2;
}

void finish(int *p)
{
    *p = 1;
    /* trailing comment */
}
