/* weft non-termination runtime, cold part (report format v2; see
 * docs/nonterm.md).
 *
 * Follows the common part (weft_out.h) at the END of each woven unit. The
 * unit's report file WEFT_OUT/<unit>.<pid>.nonterm is created at its
 * process's first report: the common header, the unit's loop declarations
 * (text), then one line per report, each written with a single write() so
 * a crash right after it keeps it. Layout words: declarations size, loop
 * count, 0.
 *
 * A loop whose state determines its next iteration ("exact") is reported
 * at its first revisit: the loop can never end. Any other loop is reported
 * as "suspected" once it has cycled for WEFT_NONTERM_PATIENCE iterations
 * (default 100000000: a loop that reads input can repeat its state while
 * the input moves on, as gzip's deflate_fast does every 16384 bytes)
 * without a break in the cycle. The policy
 * (WEFT_NONTERM_POLICY=abort|log|break, default the aspect's) then aborts
 * the process, logs and goes on, or leaves the loop. A loop woven with a
 * sufficient recurrence condition (SRC) is reported, verdict "src", as soon
 * as the condition holds at its head, by the same policy. */
#ifndef WEFT_NONTERM_COLD_V2
#define WEFT_NONTERM_COLD_V2

struct weft_nt_unit {
    const char *weft_id;         /* file-name stem of its reports */
    const char *weft_decls;      /* the declarations text */
    unsigned int weft_loops;
    const unsigned char *weft_exact; /* per loop: 1 when its state is exact */
    const char *weft_policy;     /* the aspect's default policy */
    int weft_fd;                 /* -1: not open yet; -2: failed */
};

/* The policy in force: 'a'bort, 'l'og or 'b'reak. */
static char weft_nt_policy(const struct weft_nt_unit *weft_u)
{
    const char *weft_p = weft_sys_getenv("WEFT_NONTERM_POLICY");
    if (weft_p == 0 || (*weft_p != 'a' && *weft_p != 'l' && *weft_p != 'b'))
        weft_p = weft_u->weft_policy;
    return *weft_p;
}

static void weft_nt_open(struct weft_nt_unit *weft_u)
{
    struct weft_header weft_h;
    size_t weft_len = weft_rt_strlen(weft_u->weft_decls);
    weft_u->weft_fd = weft_rt_create(weft_u->weft_id, "nonterm");
    if (weft_u->weft_fd < 0) {
        weft_u->weft_fd = -2;
        return;
    }
    weft_rt_header(&weft_h, "WEFTNTM", 2, (unsigned int)weft_len, weft_u->weft_loops, 0);
    if (!weft_rt_write_all(weft_u->weft_fd, &weft_h, sizeof weft_h)
        || !weft_rt_write_all(weft_u->weft_fd, weft_u->weft_decls, weft_len)) {
        weft_sys_close(weft_u->weft_fd);
        weft_u->weft_fd = -2;
    }
}

/* One report line: loop, verdict (exact, suspected or src), iteration,
 * period, policy, then the state's values in decimal (as unsigned 64-bit
 * words). */
static void weft_nt_write(struct weft_nt_unit *weft_u, unsigned int weft_site, const struct weft_nt_loop *weft_l,
                          unsigned long long weft_period, const unsigned long long *weft_v, unsigned int weft_n,
                          const char *weft_verdict, char weft_policy)
{
    char weft_line[WEFT_NT_MAX * 21 + 128];
    size_t weft_pos = 0;
    unsigned int weft_i;
    char weft_word[2] = {0, 0};
    int weft_ok;
    if (weft_u->weft_fd == -1)
        weft_nt_open(weft_u);
    if (weft_u->weft_fd < 0)
        return;
    weft_word[0] = weft_policy;
    weft_ok = weft_rt_append_num(weft_line, &weft_pos, sizeof weft_line, weft_site)
        && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "\t")
        && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, weft_verdict)
        && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "\t")
        && weft_rt_append_num(weft_line, &weft_pos, sizeof weft_line, weft_l->weft_iter)
        && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "\t")
        && weft_rt_append_num(weft_line, &weft_pos, sizeof weft_line, weft_period)
        && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "\t")
        && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, weft_word);
    for (weft_i = 0; weft_ok && weft_i < weft_n; weft_i++)
        weft_ok = weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "\t")
            && weft_rt_append_num(weft_line, &weft_pos, sizeof weft_line, weft_v[weft_i]);
    if (weft_ok && weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "\n"))
        weft_rt_write_all(weft_u->weft_fd, weft_line, weft_pos);
}

/* WEFT_NONTERM_PATIENCE, read once per unit: a suspected cycle asks at
 * every period. */
static unsigned long long weft_nt_patience(void)
{
    static unsigned long long weft_patience;
    if (weft_patience == 0)
        weft_patience = weft_rt_env_number("WEFT_NONTERM_PATIENCE", 100000000);
    return weft_patience;
}

/* Writes the report, then applies the policy: 1 to go on, 0 to leave the
 * loop (or abort). */
static int weft_nt_report(struct weft_nt_unit *weft_u, unsigned int weft_site, struct weft_nt_loop *weft_l,
                          unsigned long long weft_period, const unsigned long long *weft_v, unsigned int weft_n,
                          const char *weft_verdict)
{
    char weft_policy = weft_nt_policy(weft_u);
    weft_nt_write(weft_u, weft_site, weft_l, weft_period, weft_v, weft_n, weft_verdict, weft_policy);
    weft_l->weft_reported = 1;
    if (weft_policy == 'a')
        weft_sys_abort();
    return weft_policy != 'b';
}

static int weft_nt_revisit(struct weft_nt_unit *weft_u, unsigned int weft_site, struct weft_nt_loop *weft_l,
                           const unsigned long long *weft_v, unsigned int weft_n)
{
    int weft_exact;
    if (weft_u == 0 || weft_site >= weft_u->weft_loops)
        return 1;
    weft_exact = weft_u->weft_exact[weft_site];
    if (!weft_exact) {
        /* Still cycling: count the period, compare again one period on. */
        unsigned long long weft_period = weft_l->weft_lam;
        weft_l->weft_confirmed += weft_period;
        weft_l->weft_lam = 0;
        if (weft_l->weft_confirmed < weft_nt_patience())
            return 1;
        weft_l->weft_lam = weft_period;
    }
    return weft_nt_report(weft_u, weft_site, weft_l, weft_l->weft_lam, weft_v, weft_n,
                          weft_exact ? "exact" : "suspected");
}

static int weft_nt_src(struct weft_nt_unit *weft_u, unsigned int weft_site, struct weft_nt_loop *weft_l,
                       const unsigned long long *weft_v, unsigned int weft_n)
{
    if (weft_u == 0 || weft_site >= weft_u->weft_loops || weft_l->weft_reported)
        return 1;
    return weft_nt_report(weft_u, weft_site, weft_l, 0, weft_v, weft_n, "src");
}

/* In a fork child: the child's first report creates its own file. */
static void weft_nt_forget(struct weft_nt_unit *weft_u)
{
    if (weft_u->weft_fd >= 0)
        weft_sys_close(weft_u->weft_fd);
    weft_u->weft_fd = -1;
}

#endif /* WEFT_NONTERM_COLD_V2 */
