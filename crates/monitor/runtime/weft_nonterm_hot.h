/* weft non-termination runtime, hot part (report format v2; see
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
#ifndef WEFT_NONTERM_HOT_V2
#define WEFT_NONTERM_HOT_V2

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

/* The loop's sufficient recurrence condition holds: it can never end.
 * Reported once per loop entry by the site's policy; 0 to leave the loop.
 * Defined in the cold part. */
static __attribute__((unused)) int weft_nt_src(struct weft_nt_unit *weft_u, unsigned int weft_site, struct weft_nt_loop *weft_l,
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

/* A loop whose state is not compared, only its recurrence condition
 * checked: the evaluations are counted (the condition may ask whether a
 * round has run). */
static __inline__ int weft_nt_count(struct weft_nt_loop *weft_l)
{
    weft_l->weft_iter++;
    return 1;
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

/* A directly recursive function with no effects, monitored like a loop
 * whose iterations are the calls down one chain: each call's arguments are
 * compared with those of an ancestor call still active, saved at depths
 * 1, 2, 4, 8, … (Brent's schedule over the depth); the same arguments at a
 * deeper level mean the deeper call will do what the ancestor did, and
 * call down again, forever. The record is static (one per function); the
 * depth goes down again when a call returns (weft_nt_leave, run by the
 * `cleanup` attribute of a guard variable), and a save whose call has
 * returned is dropped. */
struct weft_nt_rec {
    struct weft_nt_loop weft_l;
    unsigned long long weft_depth;
    unsigned long long weft_saved_depth; /* 0: nothing saved */
};

static __inline__ struct weft_nt_rec *weft_nt_enter(struct weft_nt_unit *weft_u, unsigned int weft_site,
                                                    struct weft_nt_rec *weft_r, const unsigned long long *weft_v,
                                                    unsigned int weft_n)
{
    unsigned long long weft_d = ++weft_r->weft_depth;
    unsigned int weft_i;
    if (weft_r->weft_saved_depth != 0 && !weft_r->weft_l.weft_reported) {
        for (weft_i = 0; weft_i < weft_n && weft_r->weft_l.weft_saved[weft_i] == weft_v[weft_i]; weft_i++)
            ;
        if (weft_i == weft_n) {
            weft_r->weft_l.weft_iter = weft_d;
            weft_r->weft_l.weft_lam = weft_d - weft_r->weft_saved_depth;
            /* A call cannot be left: policy break goes on as log does. */
            (void) weft_nt_revisit(weft_u, weft_site, &weft_r->weft_l, weft_v, weft_n);
        }
    }
    if ((weft_d & (weft_d - 1)) == 0) {
        weft_nt_save(&weft_r->weft_l, weft_v, weft_n);
        weft_r->weft_saved_depth = weft_d;
    }
    return weft_r;
}

static __inline__ void weft_nt_leave(struct weft_nt_rec **weft_g)
{
    struct weft_nt_rec *weft_r = *weft_g;
    if (--weft_r->weft_depth < weft_r->weft_saved_depth) {
        weft_r->weft_saved_depth = 0;
        weft_r->weft_l.weft_reported = 0;
    }
}

/* EndWatch's interval schedule, for comparison (aspect input schedule =
 * 'interval'). A 64-bit hash of the state is stored at iteration 1, every
 * 100th up to 1,000, every 500th up to 10,000, every 1,000th up to 20,000
 * and every 5,000th after, at most WEFT_NT_EW_MAX; every iteration's hash is
 * compared with all of them. A match at distance d is confirmed exactly: the
 * state is saved, and must be equal again d iterations later, so a hash
 * collision is never reported. About 8 KiB of stack per active loop. */
#define WEFT_NT_EW_MAX 1000

struct weft_nt_iloop {
    struct weft_nt_loop weft_b;        /* count, saved state, reported, confirmed */
    unsigned long long weft_confirm_at; /* iteration of the exact check; 0: none */
    unsigned long long weft_period;
    unsigned int weft_stored;
    unsigned long long weft_hash[WEFT_NT_EW_MAX];
};

static __inline__ void weft_nt_begin_interval(struct weft_nt_iloop *weft_l)
{
    weft_nt_begin(&weft_l->weft_b);
    weft_l->weft_b.weft_confirmed = 0;
    weft_l->weft_confirm_at = 0;
    weft_l->weft_stored = 0;
}

static __inline__ unsigned long long weft_nt_hash(const unsigned long long *weft_v, unsigned int weft_n)
{
    unsigned long long weft_h = 0x9E3779B97F4A7C15ull ^ weft_n;
    unsigned int weft_i;
    for (weft_i = 0; weft_i < weft_n; weft_i++) {
        weft_h ^= weft_v[weft_i];
        weft_h *= 0xff51afd7ed558ccdull;
        weft_h ^= weft_h >> 33;
    }
    return weft_h;
}

/* Whether iteration weft_it stores its hash. */
static __inline__ int weft_nt_due(unsigned long long weft_it)
{
    if (weft_it == 1)
        return 1;
    if (weft_it <= 1000)
        return weft_it % 100 == 0;
    if (weft_it <= 10000)
        return weft_it % 500 == 0;
    if (weft_it <= 20000)
        return weft_it % 1000 == 0;
    return weft_it % 5000 == 0;
}

/* The iteration whose hash is stored in slot weft_k. */
static __inline__ unsigned long long weft_nt_slot_iteration(unsigned int weft_k)
{
    if (weft_k == 0)
        return 1;
    if (weft_k <= 10)
        return 100ull * weft_k;
    if (weft_k <= 28)
        return 1000ull + 500ull * (weft_k - 10);
    if (weft_k <= 38)
        return 10000ull + 1000ull * (weft_k - 28);
    return 20000ull + 5000ull * (weft_k - 38);
}

/* 1 to go on with the loop, 0 to leave it. */
static __inline__ int weft_nt_step_interval(struct weft_nt_unit *weft_u, unsigned int weft_site,
                                            struct weft_nt_iloop *weft_l, const unsigned long long *weft_v,
                                            unsigned int weft_n)
{
    struct weft_nt_loop *weft_b = &weft_l->weft_b;
    unsigned long long weft_it = ++weft_b->weft_iter;
    unsigned long long weft_h;
    unsigned int weft_i;
    if (weft_l->weft_confirm_at != 0) {
        if (weft_it != weft_l->weft_confirm_at)
            return 1;
        weft_l->weft_confirm_at = 0;
        for (weft_i = 0; weft_i < weft_n && weft_b->weft_saved[weft_i] == weft_v[weft_i]; weft_i++)
            ;
        if (weft_i == weft_n && !weft_b->weft_reported) {
            int weft_go;
            weft_b->weft_lam = weft_l->weft_period;
            weft_go = weft_nt_revisit(weft_u, weft_site, weft_b, weft_v, weft_n);
            /* An inexact loop still on patience: check again a period on. */
            if (!weft_b->weft_reported)
                weft_l->weft_confirm_at = weft_it + weft_l->weft_period;
            return weft_go;
        }
        return 1;
    }
    weft_h = weft_nt_hash(weft_v, weft_n);
    for (weft_i = 0; weft_i < weft_l->weft_stored; weft_i++)
        if (weft_l->weft_hash[weft_i] == weft_h) {
            weft_l->weft_period = weft_it - weft_nt_slot_iteration(weft_i);
            weft_nt_save(weft_b, weft_v, weft_n);
            weft_l->weft_confirm_at = weft_it + weft_l->weft_period;
            return 1;
        }
    if (weft_nt_due(weft_it) && weft_l->weft_stored < WEFT_NT_EW_MAX)
        weft_l->weft_hash[weft_l->weft_stored++] = weft_h;
    return 1;
}

#endif /* WEFT_NONTERM_HOT_V2 */
