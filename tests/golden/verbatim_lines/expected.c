int printf(const char *, ...);
void f(int n)
{
  if (n) {
    printf("n is \
  %d\n", n);
    /* a comment
                 drawn across lines */
    n++;
    n--;
  }
}
