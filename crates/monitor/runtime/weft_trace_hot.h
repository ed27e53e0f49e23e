/* weft trace runtime, hot part (trace format v2; see docs/invariants.md).
 *
 * The weaver puts this text at the very top of each woven translation unit,
 * before the program's own #includes, so it includes no header (see
 * docs/runtime.md for why). It declares what the sample statements call;
 * the cold part at the end of the unit defines it. A value is passed as
 * the 8 bytes of a long long, an unsigned long long, a double's bits
 * (weft_value_hot.h) or a pointer's address; strings and arrays as their
 * address and length, which the runtime reads without ever faulting. */
#ifndef WEFT_TRACE_HOT_V2
#define WEFT_TRACE_HOT_V2

struct weft_trace_tu;

/* Counts a visit of point weft_p (an entry, or a point inside a function
 * in an invocation whose entry was kept); 1 when the sampling policy keeps
 * it. The values of a sample are only computed when it is kept. */
static int weft_trace_want(struct weft_trace_tu *weft_t, unsigned int weft_p);
/* Records a kept entry sample; returns the invocation's nonce (never 0). */
static unsigned long long weft_trace_enter(struct weft_trace_tu *weft_t, unsigned int weft_p,
                                           const unsigned long long *weft_v, unsigned int weft_n);
/* Records a sample of exit or inner point weft_p of the invocation
 * weft_nonce. */
static void weft_trace_exit(struct weft_trace_tu *weft_t, unsigned int weft_p, unsigned long long weft_nonce,
                            const unsigned long long *weft_v, unsigned int weft_n);
/* 1 when the weft_n bytes at weft_a can all be read (0 for a null or bad
 * pointer): what a value read through a pointer is guarded by. */
static __attribute__((unused)) int weft_trace_readable(struct weft_trace_tu *weft_t, const void *weft_a,
                                                       unsigned long weft_n);

#endif /* WEFT_TRACE_HOT_V2 */
