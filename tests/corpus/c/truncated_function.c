int f(void)
{
  FOO(a) {
  asm volatile ( : [x] "r" (y)
  register int r __asm__ (
  é = va_arg(ap, struct s *);
