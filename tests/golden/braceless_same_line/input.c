void g(void); void h(void); void k(void);
void two_spaces(int n)
{
  if (n) g(); else h();
  while (n--) k();
  if (n) g();
  k();
}
void tabs(int n)
{
	do k(); while (n--);
	if(n)g();
	for (;;) if (n) /* reached */ g();
	if (n) g(); else if (n > 1) h(); else k();
	if (n)
		g(); else h();
}
