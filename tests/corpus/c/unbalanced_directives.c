#if 0
{
#else
int f(x(
#elif
#endif
"unterminated
#define A(x \
