/* Backward gotos that form loops, and those left alone. */
#include <stdio.h>

static int attempts;

static int try_once(void)
{
    return ++attempts < 3 ? -1 : 0;
}

int main(void)
{
    int i = 0, total = 0;
    if (total > 100) STUCK: goto STUCK;   /* never reached */
again:
    if (try_once() < 0)
        goto again;
    goto counted;                         /* a forward goto: no loop */
counted:
    total += attempts;
top:
    while (i < 3) {
        i++;
        if (i == 2)
            goto top;                     /* inside an inner loop: left alone */
    }
scan:
    {
        int k = i;                        /* a block's own declaration is fine */
        total += k;
    }
    if (++i < 6)
        goto scan;
decl:
    int doubled = total * 2;              /* a declaration in the region: left alone */
    if (doubled < 0)
        goto decl;
    printf("%d %d %d\n", attempts, total, doubled);
    return 0;
}
