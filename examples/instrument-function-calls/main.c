#include <stdio.h>

static int square(int x) {
    return x * x;
}

static void greet(void) {
    puts("hello");
}

int main(void) {
    greet();
    int s = square(3);
    return s == 9 ? 0 : 1;
}
