void g(void); void h(void); void k(void);
void two_spaces(int n)
{
  if (n) {
    enter("g");
    g();
    leave("g");
  } else {
    enter("h");
    h();
  }
  while (n--) {
    k();
    leave("k");
  }
  if (n) {
    enter("g");
    g();
    leave("g");
  }
  k();
  leave("k");
}
void tabs(int n)
{
	do {
		k();
		leave("k");
	} while (n--);
	if(n) {
		enter("g");
		g();
		leave("g");
	}
	for (;;) if (n) /* reached */ {
		enter("g");
		g();
		leave("g");
	}
	if (n) {
		enter("g");
		g();
		leave("g");
	} else if (n > 1) {
		enter("h");
		h();
	} else {
		k();
		leave("k");
	}
	if (n) {
		enter("g");
		g();
		leave("g");
	} else {
		enter("h");
		h();
	}
}
