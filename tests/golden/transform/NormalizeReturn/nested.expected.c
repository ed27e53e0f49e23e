/* GNU C nested functions: each return belongs to its own function. */
int outer(int n)
{
    int (*inner(void))(int)
    {
        int leaf(int v) { { int weft_ret; weft_ret = v + n; return weft_ret; } }
        { int (*weft_ret)(int); weft_ret = leaf; return weft_ret; }
    }
    { int weft_ret; weft_ret = inner()(n) * 2; return weft_ret; }
}

void finish(int *p)
{
    *p = 1;
    /* trailing comment */
    return;
}
