#include <stdio.h>

int main(void) {
    int sum = 0;
    for (int i = 0; i < 10; i++) {
        sum += i;
    }
    int j = 0;
    while (j < 3) {
        j++;
    }
    for (int k = 0; k < 4; k++) {
        sum -= k;
    }
    printf("sum=%d\n", sum);
    return 0;
}
