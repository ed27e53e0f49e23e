void drain(int *p, int n)
{
  while (n--)
    *p++ = 0;
  if (n) {
    enter("g");
    g();
    leave("g");
  } else {
    enter("h");
    h();
    leave("h");
  }
}
