/* weft trace runtime, reading a value by its actual type (see
 * docs/invariants.md, "Reading by the compiler's type").
 *
 * The type weft resolves for what a pointer points to can differ from the
 * one the configuration being built declares (a typedef chosen by #if).
 * So the sample statements let the compiler pick the reader: a C11
 * _Generic on the value selects one of these functions by its actual type,
 * or weft_rd_none for anything that is not the arithmetic type class weft
 * declared (a struct, a union, a pointer). Every reader takes the value's
 * address as a const void *, so every association compiles whatever the
 * real type is. A reader is called only after weft_trace_readable said the
 * bytes can be read. Signed types are stored as a long long's bits,
 * unsigned ones as an unsigned long long's, floating ones as a double's. */
#ifndef WEFT_READ_HOT_V1
#define WEFT_READ_HOT_V1

/* The value of a type that is not the one declared: never read. */
static __inline__ __attribute__((unused)) unsigned long long weft_rd_none(const void *weft_a)
{
    (void)weft_a;
    return 0;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_c(const void *weft_a)
{
    return (unsigned long long)(long long)*(const char *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_sc(const void *weft_a)
{
    return (unsigned long long)(long long)*(const signed char *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_uc(const void *weft_a)
{
    return (unsigned long long)*(const unsigned char *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_s(const void *weft_a)
{
    return (unsigned long long)(long long)*(const short *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_us(const void *weft_a)
{
    return (unsigned long long)*(const unsigned short *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_i(const void *weft_a)
{
    return (unsigned long long)(long long)*(const int *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_u(const void *weft_a)
{
    return (unsigned long long)*(const unsigned int *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_l(const void *weft_a)
{
    return (unsigned long long)(long long)*(const long *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_ul(const void *weft_a)
{
    return (unsigned long long)*(const unsigned long *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_ll(const void *weft_a)
{
    return (unsigned long long)(long long)*(const long long *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_ull(const void *weft_a)
{
    return (unsigned long long)*(const unsigned long long *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_b(const void *weft_a)
{
    /* __extension__: C90 has no _Bool. */
    return __extension__(unsigned long long)*(const _Bool *)weft_a;
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_f(const void *weft_a)
{
    return weft_f64_bits((double)*(const float *)weft_a);
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_d(const void *weft_a)
{
    return weft_f64_bits((double)*(const double *)weft_a);
}

static __inline__ __attribute__((unused)) unsigned long long weft_rd_ld(const void *weft_a)
{
    return weft_f64_bits((double)*(const long double *)weft_a);
}

#endif /* WEFT_READ_HOT_V1 */
