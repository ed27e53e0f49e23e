/* weft outputs runtime, hot part (record format v1; see docs/outputs.md).
 *
 * The weaver puts this text at the very top of each woven .c file, before
 * the program's own #includes, so it includes no header (docs/runtime.md
 * says why). It defines the annotation
 *
 *     weft_output(NAME, VALUE)
 *
 * NAME a string, VALUE of any standard arithmetic type or a char * /
 * const char * string (any other type does not compile), and
 *
 *     weft_output_pointee(NAME, POINTER)
 *
 * which records *POINTER when POINTER is not null and points to a
 * non-const, non-volatile arithmetic type other than the character types,
 * and otherwise records nothing. Both select by type with C11 _Generic,
 * behind __extension__ so that -std=c99 -pedantic builds stay quiet. The
 * cold part at the end of the unit defines the functions; each value is
 * one line of the unit's record, appended with a single write. */
#ifndef WEFT_OUTPUTS_HOT_V1
#define WEFT_OUTPUTS_HOT_V1

/* One per translation unit (weft_outputs_here, after this text): where
 * its values go. */
struct weft_outputs_state {
    const char *weft_id;   /* file-name stem of its records */
    const char *weft_unit; /* the unit's path, written in the record */
    int weft_fd;           /* -1: not open yet; -2: failed */
    int weft_forks;        /* the fork handler is registered */
    char weft_lock;
};

#define WEFT_OUTPUTS_UNUSED __attribute__((unused))

static WEFT_OUTPUTS_UNUSED void weft_output_i64(const char *weft_name, long long weft_v);
static WEFT_OUTPUTS_UNUSED void weft_output_u64(const char *weft_name, unsigned long long weft_v);
static WEFT_OUTPUTS_UNUSED void weft_output_f32(const char *weft_name, float weft_v);
static WEFT_OUTPUTS_UNUSED void weft_output_f64(const char *weft_name, double weft_v);
static WEFT_OUTPUTS_UNUSED void weft_output_f80(const char *weft_name, long double weft_v);
static WEFT_OUTPUTS_UNUSED void weft_output_str(const char *weft_name, const char *weft_v);
static WEFT_OUTPUTS_UNUSED void weft_output_none(const char *weft_name, const volatile void *weft_p);

/* The pointee types weft_output_pointee records: (type, suffix, writer). */
#define WEFT_OUTPUTS_POINTEES(weft_x)                                                              \
    weft_x(_Bool, bool, u64) weft_x(short, short, i64) weft_x(unsigned short, ushort, u64)         \
    weft_x(int, int, i64) weft_x(unsigned int, uint, u64) weft_x(long, long, i64)                  \
    weft_x(unsigned long, ulong, u64) weft_x(long long, llong, i64)                                \
    weft_x(unsigned long long, ullong, u64) weft_x(float, float, f32) weft_x(double, double, f64)  \
    weft_x(long double, ldouble, f80)

#define WEFT_OUTPUTS_DECLARE_AT(weft_t, weft_n, weft_w) \
    static WEFT_OUTPUTS_UNUSED void weft_output_at_##weft_n(const char *weft_name, const weft_t *weft_p);
WEFT_OUTPUTS_POINTEES(WEFT_OUTPUTS_DECLARE_AT)

#define WEFT_OUTPUTS_AT(weft_t, weft_n, weft_w) weft_t *: weft_output_at_##weft_n,

#define weft_output_pointee(weft_name, weft_p)                                                     \
    (__extension__ _Generic((weft_p), WEFT_OUTPUTS_POINTEES(WEFT_OUTPUTS_AT) default: weft_output_none)( \
        (weft_name), (weft_p)))

#define weft_output(weft_name, weft_value)                                                         \
    (__extension__ _Generic((weft_value),                                                          \
        _Bool: weft_output_u64, char: weft_output_i64, signed char: weft_output_i64,               \
        unsigned char: weft_output_u64, short: weft_output_i64, unsigned short: weft_output_u64,   \
        int: weft_output_i64, unsigned int: weft_output_u64, long: weft_output_i64,                \
        unsigned long: weft_output_u64, long long: weft_output_i64,                                \
        unsigned long long: weft_output_u64, float: weft_output_f32, double: weft_output_f64,      \
        long double: weft_output_f80, char *: weft_output_str,                                     \
        const char *: weft_output_str)((weft_name), (weft_value)))

#endif /* WEFT_OUTPUTS_HOT_V1 */
