/* An aspect that only looks changes nothing, byte for byte. */
#define TWICE(x) ((x) * 2)
int   odd_layout ( int a )  {	return TWICE ( a ) ;   }
