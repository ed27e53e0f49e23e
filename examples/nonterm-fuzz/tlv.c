/* tlv.c: sums the records of a type-length-value stream read from stdin.
 * A record is a type byte, a length byte and `length` bytes of value; a
 * type of 0xff ends the stream. The reader skips a record by its length
 * alone, without the two header bytes, so a record of length 0 never moves
 * it on and the loop spins forever: the bug class of many parser hangs
 * (zero-length options and chunks). scripts/fuzz-nonterm.sh lets AFL++
 * find such an input, with the loop woven with aspects/nonterm.lara. */
#include <stdio.h>

static unsigned char buf[4096];

static unsigned sum_records(unsigned n)
{
    unsigned pos = 0, sum = 0;
    while (pos + 1 < n) {
        unsigned type = buf[pos], len = buf[pos + 1];
        if (type == 0xff)
            break;
        sum += type * len;
        pos += len;          /* the bug: the header's 2 bytes are not skipped */
    }
    return sum;
}

int main(void)
{
    size_t n = fread(buf, 1, sizeof buf, stdin);
    printf("%u\n", sum_records((unsigned) n));
    return 0;
}
