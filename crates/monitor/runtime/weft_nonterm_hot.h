/* weft non-termination runtime, hot part (report format v1; see
 * docs/nonterm.md).
 *
 * The weaver puts this text at the very top of each woven translation unit,
 * before the program's own #includes, so it includes no header (see
 * docs/runtime.md). Each monitored loop gets a weft_nt_loop on the stack,
 * set up just before the loop, and calls weft_nt_step at each evaluation
 * of its condition with the loop's state: up to WEFT_NT_MAX values of 8
 * bytes, in a fixed order and width per loop, so two states are equal
 * exactly when their bytes are (no hashing, no false match).
 *
 * Revisits are found with Brent's cycle detection: one saved state, O(1)
 * time per iteration, no allocation. The saved state moves to the current
 * one whenever the distance since the last save reaches a power of two;
 * an equal state at distance L means a cycle of period L. */
#ifndef WEFT_NONTERM_HOT_V1
#define WEFT_NONTERM_HOT_V1

#define WEFT_NT_MAX 32

struct weft_nt_unit;

struct weft_nt_loop {
    unsigned long long weft_iter;      /* condition evaluations so far */
    unsigned long long weft_power;
    unsigned long long weft_lam;       /* distance from the saved state */
    unsigned long long weft_confirmed; /* iterations seen cycling (inexact loops) */
    int weft_reported;
    unsigned long long weft_saved[WEFT_NT_MAX];
};

/* A revisit of period weft_l->weft_lam: report by the site's rules; 0 to
 * leave the loop (policy break). Defined in the cold part. */
static int weft_nt_revisit(struct weft_nt_unit *weft_u, unsigned int weft_site, struct weft_nt_loop *weft_l,
                           const unsigned long long *weft_v, unsigned int weft_n);

static __inline__ void weft_nt_begin(struct weft_nt_loop *weft_l)
{
    weft_l->weft_iter = 0;
    weft_l->weft_reported = 0;
}

static __inline__ void weft_nt_save(struct weft_nt_loop *weft_l, const unsigned long long *weft_v, unsigned int weft_n)
{
    unsigned int weft_i;
    for (weft_i = 0; weft_i < weft_n; weft_i++)
        weft_l->weft_saved[weft_i] = weft_v[weft_i];
    weft_l->weft_lam = 0;
}

/* 1 to go on with the loop, 0 to leave it. */
static __inline__ int weft_nt_step(struct weft_nt_unit *weft_u, unsigned int weft_site, struct weft_nt_loop *weft_l,
                                   const unsigned long long *weft_v, unsigned int weft_n)
{
    unsigned int weft_i;
    if (weft_l->weft_iter++ == 0) {
        weft_nt_save(weft_l, weft_v, weft_n);
        weft_l->weft_power = 1;
        weft_l->weft_confirmed = 0;
        return 1;
    }
    weft_l->weft_lam++;
    for (weft_i = 0; weft_i < weft_n && weft_l->weft_saved[weft_i] == weft_v[weft_i]; weft_i++)
        ;
    if (weft_i == weft_n && !weft_l->weft_reported)
        return weft_nt_revisit(weft_u, weft_site, weft_l, weft_v, weft_n);
    if (weft_l->weft_lam == weft_l->weft_power) {
        weft_nt_save(weft_l, weft_v, weft_n);
        weft_l->weft_power *= 2;
        weft_l->weft_confirmed = 0;
    }
    return 1;
}

#endif /* WEFT_NONTERM_HOT_V1 */
