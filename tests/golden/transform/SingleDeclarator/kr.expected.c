int add(a, b, c)
    int a; int b;
    char *c;
{
    int x; int y;
    x = a;
    y = b;
    return x + y + (c != 0);
}
