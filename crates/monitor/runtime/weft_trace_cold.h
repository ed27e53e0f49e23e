/* weft trace runtime, cold part (trace format v1; see docs/invariants.md).
 *
 * Follows the common part (weft_out.h) at the END of each woven unit. A
 * unit's trace file WEFT_OUT/<unit>.<pid>.trace is created at the first
 * sample its process takes (processes that never reach a traced point
 * write nothing): the common header, the unit's declarations (text), zeros
 * up to a page boundary, then samples. Samples are written into 1 MiB
 * chunks of the file mapped shared, so they survive a crash, _exit or
 * SIGKILL; a zero tag means "the rest of this chunk is empty". Layout
 * words: declarations size, point count, chunk size.
 *
 * Sample: u32 point + 1, u32 value count, u64 nonce, then one u64 per
 * value. Sampling (WEFT_TRACE_SAMPLING=all turns it off): every sample of
 * a point's first 100 invocations, then one in 10 up to 1,000, one in 100
 * up to 10,000, one in 1,000 after; an exit is recorded iff its entry was.
 * A file stops growing at WEFT_TRACE_MAX_MB (default 256) MiB, marked by a
 * tag 0xFFFFFFFF record. A fork child starts a file of its own. */
#ifndef WEFT_TRACE_COLD_V1
#define WEFT_TRACE_COLD_V1

#define WEFT_TRACE_CHUNK (1u << 20)
#define WEFT_TRACE_CAPPED 0xFFFFFFFFu

struct weft_trace_tu {
    const char *weft_id;               /* file-name stem of its traces */
    const char *weft_decls;            /* the declarations text */
    unsigned int weft_points;
    unsigned long long *weft_counts;   /* invocations seen, per point */
    int weft_fd;                       /* -1: not open yet; -2: failed */
    char *weft_chunk;                  /* current mapped chunk, or 0 */
    size_t weft_used;                  /* bytes used in it */
    unsigned long long weft_next_chunk;/* file offset of the next chunk */
    unsigned long long weft_written;   /* sample bytes written */
    unsigned long long weft_cap;       /* 0 = capped already */
    unsigned long long weft_nonce;
    int weft_all;                      /* no sampling */
    int weft_lock;
};

static void weft_trace_lock(struct weft_trace_tu *weft_t)
{
    while (__atomic_test_and_set(&weft_t->weft_lock, __ATOMIC_ACQUIRE))
        ;
}

static void weft_trace_unlock(struct weft_trace_tu *weft_t)
{
    __atomic_clear(&weft_t->weft_lock, __ATOMIC_RELEASE);
}

/* Creates the file and writes the header and declarations; the samples
 * start at the first page boundary after them. */
static void weft_trace_open(struct weft_trace_tu *weft_t)
{
    struct weft_header weft_h;
    size_t weft_len = weft_rt_strlen(weft_t->weft_decls);
    const char *weft_mode = getenv("WEFT_TRACE_SAMPLING");
    weft_t->weft_fd = weft_rt_create(weft_t->weft_id, "trace");
    if (weft_t->weft_fd < 0) {
        weft_t->weft_fd = -2;
        return;
    }
    weft_rt_header(&weft_h, "WEFTTRC", 1, (unsigned int)weft_len, weft_t->weft_points, WEFT_TRACE_CHUNK);
    if (!weft_rt_write_all(weft_t->weft_fd, &weft_h, sizeof weft_h)
        || !weft_rt_write_all(weft_t->weft_fd, weft_t->weft_decls, weft_len)) {
        close(weft_t->weft_fd);
        weft_t->weft_fd = -2;
        return;
    }
    weft_t->weft_next_chunk = ((sizeof weft_h + weft_len + 4095) / 4096) * 4096;
    weft_t->weft_cap = weft_rt_env_number("WEFT_TRACE_MAX_MB", 256) << 20;
    weft_t->weft_all = weft_mode != 0 && weft_mode[0] == 'a' && weft_mode[1] == 'l' && weft_mode[2] == 'l';
}

/* Maps the next chunk of the file (extending it); 0 on failure. */
static int weft_trace_new_chunk(struct weft_trace_tu *weft_t)
{
    unsigned long long weft_at = weft_t->weft_next_chunk;
    void *weft_map;
    if (weft_t->weft_chunk != 0)
        munmap(weft_t->weft_chunk, WEFT_TRACE_CHUNK);
    weft_t->weft_chunk = 0;
    if (lseek(weft_t->weft_fd, (off_t)(weft_at + WEFT_TRACE_CHUNK - 1), SEEK_SET) < 0
        || !weft_rt_write_all(weft_t->weft_fd, "", 1))
        return 0;
    weft_map = mmap(0, WEFT_TRACE_CHUNK, PROT_READ | PROT_WRITE, MAP_SHARED, weft_t->weft_fd, (off_t)weft_at);
    if (weft_map == MAP_FAILED)
        return 0;
    weft_t->weft_chunk = (char *)weft_map;
    weft_t->weft_used = 0;
    weft_t->weft_next_chunk = weft_at + WEFT_TRACE_CHUNK;
    return 1;
}

/* Room for weft_len bytes of samples, or 0 (no file, or capped). */
static char *weft_trace_room(struct weft_trace_tu *weft_t, size_t weft_len)
{
    char *weft_p;
    if (weft_t->weft_fd == -1)
        weft_trace_open(weft_t);
    if (weft_t->weft_fd < 0 || weft_t->weft_cap == 0 || weft_len > WEFT_TRACE_CHUNK - 8)
        return 0;
    if (weft_t->weft_written + weft_len > weft_t->weft_cap) {
        /* One marker record says the trace was cut here. */
        weft_t->weft_cap = 0;
        if (weft_t->weft_chunk != 0 && weft_t->weft_used + 8 <= WEFT_TRACE_CHUNK) {
            unsigned int *weft_tag = (unsigned int *)(weft_t->weft_chunk + weft_t->weft_used);
            weft_tag[1] = 0;
            __atomic_store_n(&weft_tag[0], WEFT_TRACE_CAPPED, __ATOMIC_RELEASE);
        }
        return 0;
    }
    if (weft_t->weft_chunk == 0 || weft_t->weft_used + weft_len + 8 > WEFT_TRACE_CHUNK)
        if (!weft_trace_new_chunk(weft_t))
            return 0;
    weft_p = weft_t->weft_chunk + weft_t->weft_used;
    weft_t->weft_used += weft_len;
    weft_t->weft_written += weft_len;
    return weft_p;
}

/* Writes one sample; the tag goes last, so a reader never sees half of one. */
static void weft_trace_put(struct weft_trace_tu *weft_t, unsigned int weft_p, unsigned long long weft_nonce,
                           const unsigned long long *weft_v, unsigned int weft_n)
{
    char *weft_room = weft_trace_room(weft_t, 16 + 8 * (size_t)weft_n);
    unsigned long long *weft_slots;
    unsigned int weft_i;
    if (weft_room == 0)
        return;
    weft_slots = (unsigned long long *)weft_room;
    weft_slots[1] = weft_nonce;
    for (weft_i = 0; weft_i < weft_n; weft_i++)
        weft_slots[2 + weft_i] = weft_v[weft_i];
    ((unsigned int *)weft_room)[1] = weft_n;
    __atomic_store_n((unsigned int *)weft_room, weft_p + 1, __ATOMIC_RELEASE);
}

/* The sampling policy: whether invocation weft_c (0-based) of a point is kept. */
static int weft_trace_keep(unsigned long long weft_c)
{
    if (weft_c < 100)
        return 1;
    if (weft_c < 1000)
        return weft_c % 10 == 0;
    if (weft_c < 10000)
        return weft_c % 100 == 0;
    return weft_c % 1000 == 0;
}

static unsigned long long weft_trace_enter(struct weft_trace_tu *weft_t, unsigned int weft_p,
                                           const unsigned long long *weft_v, unsigned int weft_n)
{
    unsigned long long weft_nonce = 0;
    weft_trace_lock(weft_t);
    if (weft_p < weft_t->weft_points
        && (weft_t->weft_all || weft_trace_keep(weft_t->weft_counts[weft_p]))) {
        weft_nonce = ++weft_t->weft_nonce;
        weft_trace_put(weft_t, weft_p, weft_nonce, weft_v, weft_n);
    }
    if (weft_p < weft_t->weft_points)
        weft_t->weft_counts[weft_p]++;
    weft_trace_unlock(weft_t);
    return weft_nonce;
}

static void weft_trace_exit(struct weft_trace_tu *weft_t, unsigned int weft_p, unsigned long long weft_nonce,
                            const unsigned long long *weft_v, unsigned int weft_n)
{
    if (weft_nonce == 0)
        return;
    weft_trace_lock(weft_t);
    weft_trace_put(weft_t, weft_p, weft_nonce, weft_v, weft_n);
    weft_trace_unlock(weft_t);
}

/* In a fork child: forget the parent's file and counts; the child's first
 * sample creates its own file. */
static void weft_trace_forget(struct weft_trace_tu *weft_t)
{
    unsigned int weft_i;
    if (weft_t->weft_chunk != 0)
        munmap(weft_t->weft_chunk, WEFT_TRACE_CHUNK);
    if (weft_t->weft_fd >= 0)
        close(weft_t->weft_fd);
    weft_t->weft_chunk = 0;
    weft_t->weft_fd = -1;
    weft_t->weft_used = 0;
    weft_t->weft_written = 0;
    weft_t->weft_nonce = 0;
    weft_t->weft_lock = 0;
    for (weft_i = 0; weft_i < weft_t->weft_points; weft_i++)
        weft_t->weft_counts[weft_i] = 0;
}

#endif /* WEFT_TRACE_COLD_V1 */
