int add(a, b, c)
    int a, b;
    char *c;
{
    int x, y;
    x = a;
    y = b;
    return x + y + (c != 0);
}
