/* weft range runtime, hot part (record format v1; see docs/runtime.md).
 *
 * The weaver puts this text at the very top of each woven translation unit,
 * before the program's own #includes. It therefore includes no header and
 * uses only C99 keywords and types: a system header here would be read before
 * the program's feature-test macros (_GNU_SOURCE, gnulib's config.h) and
 * change what the program's own headers declare.
 *
 * One weft_slot per monitored variable. A slot lives in a file-backed shared
 * mapping (set up by the cold part at the end of the unit), so every store
 * below lands in the page cache: nothing is lost if the process crashes.
 * Updates take no lock; racing threads can lose an update (see the docs). */
#ifndef WEFT_RANGES_HOT_V1
#define WEFT_RANGES_HOT_V1

union weft_val {
    long long weft_i;
    unsigned long long weft_u;
    double weft_d;
};

/* 32 bytes, the on-disk entry layout (little-endian). weft_flags: 1 = a
 * number was seen (weft_lo/weft_hi are valid), 2 = a NaN was seen; on disk
 * its first byte, the other seven zero. It is written as a whole 8-byte word
 * so that no update stores through a character type, which the compiler must
 * assume may change any of the program's variables. */
struct weft_slot {
    unsigned long long weft_n;
    union weft_val weft_lo;
    union weft_val weft_hi;
    unsigned long long weft_flags;
};

/* A slot nothing was recorded in. Integer slots start from the empty range
 * (weft_lo the type's maximum, weft_hi its minimum): the first value then
 * moves at least one bound, and every update is two compares with no
 * first-use test. Doubles keep the first-use test, which the NaN test needs
 * anyway. The weaver initialises each unit's slots with these. */
#define WEFT_EMPTY_I64 { 0, { 0x7fffffffffffffffLL }, { -0x7fffffffffffffffLL - 1 }, 0 }
#define WEFT_EMPTY_U64 { 0, { -1LL }, { 0 }, 0 }
#define WEFT_EMPTY_F64 { 0, { 0 }, { 0 }, 0 }

/* A test that is almost always false: a bound moves only until the range
 * has settled, and a NaN is rare. gcc then lays the rare stores out of
 * line, so an update that moves nothing runs straight through (no taken
 * branch); on gzip this took ASCV3's added CPU time from 23% to 13%
 * (docs/benchmarks.md). */
#ifndef WEFT_RARE
#define WEFT_RARE(weft_c) __builtin_expect(!!(weft_c), 0)
#endif

static __inline__ __attribute__((__always_inline__)) void weft_range_update_i64(struct weft_slot *weft_s, long long weft_v)
{
    if (WEFT_RARE(weft_v < weft_s->weft_lo.weft_i)) {
        weft_s->weft_lo.weft_i = weft_v;
        weft_s->weft_flags = 1;
    }
    if (WEFT_RARE(weft_v > weft_s->weft_hi.weft_i)) {
        weft_s->weft_hi.weft_i = weft_v;
        weft_s->weft_flags = 1;
    }
    weft_s->weft_n++;
}

static __inline__ __attribute__((__always_inline__)) void weft_range_update_u64(struct weft_slot *weft_s, unsigned long long weft_v)
{
    if (WEFT_RARE(weft_v < weft_s->weft_lo.weft_u)) {
        weft_s->weft_lo.weft_u = weft_v;
        weft_s->weft_flags = 1;
    }
    if (WEFT_RARE(weft_v > weft_s->weft_hi.weft_u)) {
        weft_s->weft_hi.weft_u = weft_v;
        weft_s->weft_flags = 1;
    }
    weft_s->weft_n++;
}

/* NaN compares false with everything, so it is flagged apart and never
 * becomes a bound. -0.0 and +0.0 compare equal: whichever comes first stays. */
static __inline__ __attribute__((__always_inline__)) void weft_range_update_f64(struct weft_slot *weft_s, double weft_v)
{
    if (WEFT_RARE(weft_v != weft_v)) {
        weft_s->weft_flags |= 2;
    } else if (WEFT_RARE(!(weft_s->weft_flags & 1))) {
        weft_s->weft_lo.weft_d = weft_v;
        weft_s->weft_hi.weft_d = weft_v;
        weft_s->weft_flags |= 1;
    } else if (WEFT_RARE(weft_v < weft_s->weft_lo.weft_d)) {
        weft_s->weft_lo.weft_d = weft_v;
    } else if (WEFT_RARE(weft_v > weft_s->weft_hi.weft_d)) {
        weft_s->weft_hi.weft_d = weft_v;
    }
    weft_s->weft_n++;
}

#endif /* WEFT_RANGES_HOT_V1 */
