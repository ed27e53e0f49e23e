int printf(const char *, ...);
void f(int n)
{
  if (n) {
    n--;
  }
}
