/* Goto loops in a switch's case, and shapes left alone. */
#include <stdio.h>

int main(int argc, char **argv)
{
    int x = argc, n = 0;
    (void)argv;
    switch (x) {
    case 1:
    again:
        n++;
        if (n < 4)
            goto again;
        break;
    default:
        n = 10;
    }
    switch (x) {
    over:
        n += 2;                           /* the switch jumps into the region: left alone */
    case 1:
        if (n < 14)
            goto over;
    }
    {
    outside:
        n++;
    }
    if (n < 16)
        goto outside;                     /* outside the label's block: left alone */
    printf("%d\n", n);
    return 0;
}
