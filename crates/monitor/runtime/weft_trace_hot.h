/* weft trace runtime, hot part (trace format v1; see docs/invariants.md).
 *
 * The weaver puts this text at the very top of each woven translation unit,
 * before the program's own #includes, so it includes no header (see
 * docs/runtime.md for why). It declares what the sample statements call;
 * the cold part at the end of the unit defines it. A value is passed as
 * the 8 bytes of a long long, an unsigned long long, a double's bits
 * (weft_value_hot.h) or a pointer's address. */
#ifndef WEFT_TRACE_HOT_V1
#define WEFT_TRACE_HOT_V1

struct weft_trace_tu;

/* Records a sample of point weft_p at a function entry (or any point that
 * starts an invocation); returns the invocation's nonce, 0 when the
 * sampling policy skipped it. */
static unsigned long long weft_trace_enter(struct weft_trace_tu *weft_t, unsigned int weft_p,
                                           const unsigned long long *weft_v, unsigned int weft_n);
/* Records a sample of exit point weft_p of the invocation weft_nonce
 * (nothing when its entry was skipped). */
static void weft_trace_exit(struct weft_trace_tu *weft_t, unsigned int weft_p, unsigned long long weft_nonce,
                            const unsigned long long *weft_v, unsigned int weft_n);

#endif /* WEFT_TRACE_HOT_V1 */
