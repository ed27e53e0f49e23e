/* weft monitor runtime, values (see docs/runtime.md): what every monitor
 * that records 8-byte values needs at the top of a woven unit, before any
 * header. A double is recorded as its bits. */
#ifndef WEFT_VALUE_HOT_V1
#define WEFT_VALUE_HOT_V1

static __inline__ unsigned long long weft_f64_bits(double weft_d)
{
    union {
        double weft_d;
        unsigned long long weft_u;
    } weft_x;
    weft_x.weft_d = weft_d;
    return weft_x.weft_u;
}

#endif /* WEFT_VALUE_HOT_V1 */
