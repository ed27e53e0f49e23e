#include <stdio.h>

int main(void) {
    int total = 0;
    for (int i = 0; i < 8; i++) {
        total += i;
    }
    printf("total=%d\n", total);
    return 0;
}
