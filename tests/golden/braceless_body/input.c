void drain(int *p, int n)
{
  while (n--)
    *p++ = 0;
  if (n) g(); else h();
}
