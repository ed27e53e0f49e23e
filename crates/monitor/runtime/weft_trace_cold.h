/* weft trace runtime, cold part (trace format v2; see docs/invariants.md).
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
 * Sample: u32 point + 1, u32 payload size in u64 words, u64 nonce, then the
 * payload: per variable, in declaration order, one word for a scalar; two
 * (present, value) for a scalar read through a pointer; for a string its
 * byte length then its bytes padded to words; for an array its element
 * count then one word per element; a length of ~0 means "missing" (null
 * or unreadable). A point's layout string (one character per variable:
 * '.' scalar, '?' guarded scalar, 's' string, 'i'/'u'/'f' array of
 * signed/unsigned/floating elements) says which; a point of scalars only
 * has none. Memory behind pointers is read with process_vm_readv on the
 * process itself (Linux), so a bad pointer gives a missing value, never a
 * fault; where there is no such call, such values are all missing.
 *
 * Sampling (WEFT_TRACE_SAMPLING=all turns it off): every sample of
 * a point's first 100 invocations, then one in 10 up to 1,000, one in 100
 * up to 10,000, one in 1,000 after; an exit is recorded iff its entry was.
 * A point inside a function (before a call that does not return, a loop
 * head) is counted only in invocations whose entry was recorded, and kept
 * by the same schedule over its own count: a loop head that runs a million
 * times in kept invocations gives about 1,300 samples, not a million.
 * A file stops growing at WEFT_TRACE_MAX_MB (default 256) MiB, marked by a
 * tag 0xFFFFFFFF record. A fork child starts a file of its own. */
#ifdef SYS_process_vm_readv
/* The system call itself (glibc declares process_vm_readv only under
 * _GNU_SOURCE, and the name is the program's; see weft_out.h). */
#define WEFT_TRACE_VM_READ(pid, local, remote, count) \
    weft_sys_syscall(SYS_process_vm_readv, (long)(pid), local, 1L, remote, (long)(count), 0L)
#else
/* No kernel read of one's own memory elsewhere: what lies behind pointers
 * is recorded as missing rather than read unguarded. */
#define WEFT_TRACE_VM_READ(pid, local, remote, count) ((void)(pid), (void)(local), (void)(remote), -1L)
#endif

#ifndef WEFT_TRACE_COLD_V2
#define WEFT_TRACE_COLD_V2

#define WEFT_TRACE_CHUNK (1u << 20)
#define WEFT_TRACE_CAPPED 0xFFFFFFFFu
#define WEFT_TRACE_MISSING (~0ull)
#define WEFT_TRACE_STR_MAX 256u   /* bytes of a string kept */
#define WEFT_TRACE_SEQ_MAX 256u   /* elements of an array read; more: missing */
#define WEFT_TRACE_PAGE 4096ul

/* The layout of struct iovec (sys/uio.h declares readv and writev). */
struct weft_iovec {
    void *iov_base;
    size_t iov_len;
};

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
    const char *const *weft_layouts;   /* per point, or 0: scalars only */
    long long weft_pid;                /* 0: not asked yet */
    unsigned long long weft_epoch;     /* one per sample being taken */
    const void *weft_probe_at;         /* the last readable() answer */
    unsigned long weft_probe_size;
    unsigned long long weft_probe_epoch;
    int weft_probe_ok;
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
    const char *weft_mode = weft_sys_getenv("WEFT_TRACE_SAMPLING");
    weft_t->weft_fd = weft_rt_create(weft_t->weft_id, "trace");
    if (weft_t->weft_fd < 0) {
        weft_t->weft_fd = -2;
        return;
    }
    weft_rt_header(&weft_h, "WEFTTRC", 2, (unsigned int)weft_len, weft_t->weft_points, WEFT_TRACE_CHUNK);
    if (!weft_rt_write_all(weft_t->weft_fd, &weft_h, sizeof weft_h)
        || !weft_rt_write_all(weft_t->weft_fd, weft_t->weft_decls, weft_len)) {
        weft_sys_close(weft_t->weft_fd);
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
        weft_sys_unmap(weft_t->weft_chunk, WEFT_TRACE_CHUNK);
    weft_t->weft_chunk = 0;
    if (weft_sys_lseek(weft_t->weft_fd, (long)(weft_at + WEFT_TRACE_CHUNK - 1), WEFT_SEEK_SET) < 0
        || !weft_rt_write_all(weft_t->weft_fd, "", 1))
        return 0;
    weft_map = weft_sys_map(WEFT_TRACE_CHUNK, weft_t->weft_fd, (long)weft_at);
    if (weft_map == 0)
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

/* Reads weft_n (at most two pages' worth) bytes at weft_src into weft_dst
 * through the kernel, which refuses unreadable memory instead of faulting;
 * returns how many leading bytes it read. */
static unsigned long weft_trace_copy(struct weft_trace_tu *weft_t, void *weft_dst, const void *weft_src,
                                     unsigned long weft_n)
{
    struct weft_iovec weft_local, weft_remote[2];
    unsigned long weft_first = WEFT_TRACE_PAGE - ((unsigned long)(__UINTPTR_TYPE__)weft_src % WEFT_TRACE_PAGE);
    long weft_r;
    if (weft_src == 0 || weft_n == 0 || weft_n > WEFT_TRACE_PAGE)
        return 0;
    if (weft_t->weft_pid == 0)
        weft_t->weft_pid = (long long)weft_sys_getpid();
    weft_local.iov_base = weft_dst;
    weft_local.iov_len = weft_n;
    /* One piece per page: a read stops at the first unreadable page. */
    weft_remote[0].iov_base = (void *)(__UINTPTR_TYPE__)weft_src;
    weft_remote[0].iov_len = weft_n < weft_first ? weft_n : weft_first;
    weft_remote[1].iov_base = (char *)(__UINTPTR_TYPE__)weft_src + weft_remote[0].iov_len;
    weft_remote[1].iov_len = weft_n - weft_remote[0].iov_len;
    weft_r = WEFT_TRACE_VM_READ((int)weft_t->weft_pid, &weft_local, weft_remote, weft_remote[1].iov_len != 0 ? 2 : 1);
    return weft_r < 0 ? 0 : (unsigned long)weft_r;
}

static int weft_trace_readable(struct weft_trace_tu *weft_t, const void *weft_a, unsigned long weft_n)
{
    struct weft_iovec weft_local, weft_remote[64];
    unsigned char weft_sink[64];
    unsigned long weft_at = (unsigned long)(__UINTPTR_TYPE__)weft_a, weft_k = 1;
    unsigned long weft_page = (weft_at / WEFT_TRACE_PAGE + 1) * WEFT_TRACE_PAGE;
    int weft_ok;
    if (weft_a == 0 || weft_n == 0)
        return 0;
    weft_trace_lock(weft_t);
    /* One answer per pointer and sample: its fields all ask the same. */
    if (weft_t->weft_probe_epoch == weft_t->weft_epoch && weft_t->weft_probe_at == weft_a
        && weft_t->weft_probe_size == weft_n) {
        weft_ok = weft_t->weft_probe_ok;
        weft_trace_unlock(weft_t);
        return weft_ok;
    }
    if (weft_t->weft_pid == 0)
        weft_t->weft_pid = (long long)weft_sys_getpid();
    /* Protection is per page: one byte of each page the object touches. */
    weft_remote[0].iov_base = (void *)(__UINTPTR_TYPE__)weft_a;
    weft_remote[0].iov_len = 1;
    for (; weft_page < weft_at + weft_n && weft_k < 64; weft_page += WEFT_TRACE_PAGE, weft_k++) {
        weft_remote[weft_k].iov_base = (void *)weft_page;
        weft_remote[weft_k].iov_len = 1;
    }
    weft_local.iov_base = weft_sink;
    weft_local.iov_len = weft_k;
    weft_ok = weft_page >= weft_at + weft_n
              && WEFT_TRACE_VM_READ((int)weft_t->weft_pid, &weft_local, weft_remote, weft_k) == (long)weft_k;
    weft_t->weft_probe_epoch = weft_t->weft_epoch;
    weft_t->weft_probe_at = weft_a;
    weft_t->weft_probe_size = weft_n;
    weft_t->weft_probe_ok = weft_ok;
    weft_trace_unlock(weft_t);
    return weft_ok;
}

/* The most payload words a sample of this layout can take. */
static size_t weft_trace_words(const char *weft_layout)
{
    size_t weft_w = 0;
    for (; *weft_layout != '\0'; weft_layout++)
        weft_w += *weft_layout == '.' ? 1 : *weft_layout == '?' ? 2
                : *weft_layout == 's' ? 1 + WEFT_TRACE_STR_MAX / 8 : 1 + WEFT_TRACE_SEQ_MAX;
    return weft_w;
}

/* One array element of weft_size bytes, widened to a stored word. */
static unsigned long long weft_trace_widen(const unsigned char *weft_b, unsigned long weft_size, char weft_kind)
{
    union {
        unsigned char weft_c[8];
        signed char weft_i8;
        short weft_i16;
        int weft_i32;
        long long weft_i64;
        unsigned short weft_u16;
        unsigned int weft_u32;
        unsigned long long weft_u64;
        float weft_f32;
        double weft_f64;
    } weft_x;
    unsigned long weft_i;
    for (weft_i = 0; weft_i < weft_size; weft_i++)
        weft_x.weft_c[weft_i] = weft_b[weft_i];
    if (weft_kind == 'f')
        return weft_f64_bits(weft_size == 4 ? (double)weft_x.weft_f32 : weft_x.weft_f64);
    if (weft_kind == 'i')
        return (unsigned long long)(weft_size == 1 ? weft_x.weft_i8 : weft_size == 2 ? weft_x.weft_i16
                                   : weft_size == 4 ? weft_x.weft_i32 : weft_x.weft_i64);
    return weft_size == 1 ? weft_x.weft_c[0] : weft_size == 2 ? weft_x.weft_u16
         : weft_size == 4 ? weft_x.weft_u32 : weft_x.weft_u64;
}

/* A string (address, byte bound) as its length and bytes; returns the
 * words written. Missing when no NUL comes before unreadable memory; cut
 * at WEFT_TRACE_STR_MAX bytes or the bound (a char array's size). */
static size_t weft_trace_string(struct weft_trace_tu *weft_t, const unsigned long long *weft_v,
                                 unsigned long long *weft_out)
{
    unsigned long weft_bound = weft_v[1] == 0 || weft_v[1] > WEFT_TRACE_STR_MAX ? WEFT_TRACE_STR_MAX
                                                                                : (unsigned long)weft_v[1];
    unsigned char *weft_s = (unsigned char *)(weft_out + 1);
    unsigned long weft_r = weft_trace_copy(weft_t, weft_s, (const void *)(__UINTPTR_TYPE__)weft_v[0], weft_bound);
    unsigned long weft_len = 0;
    while (weft_len < weft_r && weft_s[weft_len] != 0)
        weft_len++;
    if (weft_len == weft_r && weft_r < weft_bound) {
        weft_out[0] = WEFT_TRACE_MISSING;
        return 1;
    }
    weft_out[0] = weft_len;
    while (weft_len % 8 != 0)
        weft_s[weft_len++] = 0;
    return 1 + weft_len / 8;
}

/* An array (address, count, element size) as its count and elements;
 * returns the words written. */
static size_t weft_trace_array(struct weft_trace_tu *weft_t, const unsigned long long *weft_v, char weft_kind,
                               unsigned long long *weft_out)
{
    unsigned char weft_buf[WEFT_TRACE_SEQ_MAX * 8];
    unsigned long long weft_count = weft_v[1], weft_size = weft_v[2], weft_i;
    int weft_fits = weft_kind == 'f' ? weft_size == 4 || weft_size == 8
                                     : weft_size == 1 || weft_size == 2 || weft_size == 4 || weft_size == 8;
    weft_out[0] = WEFT_TRACE_MISSING;
    if (!weft_fits || weft_count > WEFT_TRACE_SEQ_MAX
        || weft_trace_copy(weft_t, weft_buf, (const void *)(__UINTPTR_TYPE__)weft_v[0],
                           (unsigned long)(weft_count * weft_size)) != weft_count * weft_size)
        return 1;
    weft_out[0] = weft_count;
    for (weft_i = 0; weft_i < weft_count; weft_i++)
        weft_out[1 + weft_i] = weft_trace_widen(weft_buf + weft_i * weft_size, (unsigned long)weft_size, weft_kind);
    return 1 + (size_t)weft_count;
}

/* The payload of a sample with a layout; returns its words. */
static size_t weft_trace_fill(struct weft_trace_tu *weft_t, const char *weft_layout, const unsigned long long *weft_v,
                              unsigned long long *weft_out)
{
    size_t weft_w = 0;
    for (; *weft_layout != '\0'; weft_layout++) {
        switch (*weft_layout) {
        case '.':
            weft_out[weft_w++] = *weft_v++;
            break;
        case '?':
            weft_out[weft_w++] = *weft_v++;
            weft_out[weft_w++] = *weft_v++;
            break;
        case 's':
            weft_w += weft_trace_string(weft_t, weft_v, weft_out + weft_w);
            weft_v += 2;
            break;
        default:
            weft_w += weft_trace_array(weft_t, weft_v, *weft_layout, weft_out + weft_w);
            weft_v += 3;
            break;
        }
    }
    return weft_w;
}

/* Writes one sample; the tag goes last, so a reader never sees half of one.
 * Room is taken for the largest payload the layout allows, and what the
 * strings and arrays did not use is given back. */
static void weft_trace_put(struct weft_trace_tu *weft_t, unsigned int weft_p, unsigned long long weft_nonce,
                           const unsigned long long *weft_v, unsigned int weft_n)
{
    const char *weft_layout = weft_t->weft_layouts != 0 ? weft_t->weft_layouts[weft_p] : 0;
    size_t weft_most = weft_layout != 0 ? weft_trace_words(weft_layout) : weft_n, weft_words = weft_n, weft_i;
    char *weft_room = weft_trace_room(weft_t, 16 + 8 * weft_most);
    unsigned long long *weft_slots;
    if (weft_room == 0)
        return;
    weft_slots = (unsigned long long *)weft_room;
    weft_slots[1] = weft_nonce;
    if (weft_layout != 0)
        weft_words = weft_trace_fill(weft_t, weft_layout, weft_v, weft_slots + 2);
    else
        for (weft_i = 0; weft_i < weft_n; weft_i++)
            weft_slots[2 + weft_i] = weft_v[weft_i];
    /* What a string or array read left beyond the payload is cleared, so
     * that the next tag reads 0 until a sample is complete there. */
    for (weft_i = 2 + weft_words; weft_i < 2 + weft_most; weft_i++)
        weft_slots[weft_i] = 0;
    weft_t->weft_used -= 8 * (weft_most - weft_words);
    weft_t->weft_written -= 8 * (weft_most - weft_words);
    ((unsigned int *)weft_room)[1] = (unsigned int)weft_words;
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

static int weft_trace_want(struct weft_trace_tu *weft_t, unsigned int weft_p)
{
    int weft_keep;
    if (weft_p >= weft_t->weft_points || weft_t->weft_fd == -2)
        return 0;
    weft_trace_lock(weft_t);
    weft_keep = weft_t->weft_all || weft_trace_keep(weft_t->weft_counts[weft_p]);
    weft_t->weft_counts[weft_p]++;
    weft_t->weft_epoch += weft_keep;
    weft_trace_unlock(weft_t);
    return weft_keep;
}

static unsigned long long weft_trace_enter(struct weft_trace_tu *weft_t, unsigned int weft_p,
                                           const unsigned long long *weft_v, unsigned int weft_n)
{
    unsigned long long weft_nonce;
    weft_trace_lock(weft_t);
    weft_nonce = ++weft_t->weft_nonce;
    weft_trace_put(weft_t, weft_p, weft_nonce, weft_v, weft_n);
    weft_t->weft_epoch++;
    weft_trace_unlock(weft_t);
    return weft_nonce;
}

static void weft_trace_exit(struct weft_trace_tu *weft_t, unsigned int weft_p, unsigned long long weft_nonce,
                            const unsigned long long *weft_v, unsigned int weft_n)
{
    if (weft_nonce == 0 || weft_p >= weft_t->weft_points)
        return;
    weft_trace_lock(weft_t);
    weft_trace_put(weft_t, weft_p, weft_nonce, weft_v, weft_n);
    weft_t->weft_epoch++;
    weft_trace_unlock(weft_t);
}

/* In a fork child: forget the parent's file and counts; the child's first
 * sample creates its own file. */
static void weft_trace_forget(struct weft_trace_tu *weft_t)
{
    unsigned int weft_i;
    if (weft_t->weft_chunk != 0)
        weft_sys_unmap(weft_t->weft_chunk, WEFT_TRACE_CHUNK);
    if (weft_t->weft_fd >= 0)
        weft_sys_close(weft_t->weft_fd);
    weft_t->weft_chunk = 0;
    weft_t->weft_fd = -1;
    weft_t->weft_used = 0;
    weft_t->weft_written = 0;
    weft_t->weft_nonce = 0;
    weft_t->weft_lock = 0;
    weft_t->weft_pid = 0;
    weft_t->weft_probe_at = 0;
    for (weft_i = 0; weft_i < weft_t->weft_points; weft_i++)
        weft_t->weft_counts[weft_i] = 0;
}

#endif /* WEFT_TRACE_COLD_V2 */
