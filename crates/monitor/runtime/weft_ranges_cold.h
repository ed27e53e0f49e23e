/* weft range runtime, cold part (record format v1; see docs/runtime.md).
 *
 * The weaver puts this text at the END of each woven translation unit, after
 * the program's own code, so the system headers below are read after the
 * program has settled its feature-test macros. Only functions that glibc
 * declares even under -std=c99 without feature macros are used (no
 * ftruncate, fileno or O_CLOEXEC). Every identifier starts with weft_ so the
 * program's macros cannot capture it.
 *
 * At load time (a constructor, so it also runs in shared libraries) each unit
 * creates its own record file WEFT_OUT/<unit>.<pid>.ranges, maps it shared
 * and points the unit's table at the mapping. A fork handler gives each
 * child process a fresh file of its own. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifndef WEFT_RANGES_COLD_V1
#define WEFT_RANGES_COLD_V1

/* The 64-byte file header, in native byte order (weft_order tells which). */
struct weft_header {
    char weft_magic[8];
    unsigned int weft_version;
    unsigned int weft_order;
    unsigned int weft_header_size;
    unsigned int weft_entry_size;
    unsigned int weft_count;
    unsigned int weft_names_size;
    long long weft_pid;
    long long weft_ppid;
    long long weft_time;
    unsigned char weft_reserved[8];
};

/* Compile-time layout checks: a negative array size stops the build. */
typedef char weft_header_is_64_bytes[sizeof(struct weft_header) == 64 ? 1 : -1];
typedef char weft_slot_is_32_bytes[sizeof(struct weft_slot) == 32 ? 1 : -1];

/* What the cold code needs to know about one woven translation unit. */
struct weft_tu {
    const char *weft_id;               /* file-name stem of its records */
    unsigned int weft_count;           /* number of slots */
    const char *const *weft_names;     /* 5 strings per slot */
    struct weft_slot *weft_fallback;   /* static slots used when no file */
    struct weft_slot **weft_table;     /* the pointer the updates go through */
    void *weft_map;                    /* current mapping, or 0 */
    size_t weft_map_len;
};

static size_t weft_rt_strlen(const char *weft_s)
{
    size_t weft_n = 0;
    while (weft_s[weft_n] != '\0')
        weft_n++;
    return weft_n;
}

/* Appends a string to a bounded buffer; 0 when it does not fit. */
static int weft_rt_append(char *weft_buf, size_t *weft_pos, size_t weft_cap, const char *weft_s)
{
    while (*weft_s != '\0') {
        if (*weft_pos + 1 >= weft_cap)
            return 0;
        weft_buf[(*weft_pos)++] = *weft_s++;
    }
    weft_buf[*weft_pos] = '\0';
    return 1;
}

/* Decimal formatting by hand: the fork child may not call snprintf. */
static int weft_rt_append_num(char *weft_buf, size_t *weft_pos, size_t weft_cap, unsigned long long weft_v)
{
    char weft_digits[24];
    int weft_i = 23;
    weft_digits[weft_i] = '\0';
    do {
        weft_digits[--weft_i] = (char)('0' + weft_v % 10);
        weft_v /= 10;
    } while (weft_v != 0);
    return weft_rt_append(weft_buf, weft_pos, weft_cap, weft_digits + weft_i);
}

static int weft_rt_write_all(int weft_fd, const void *weft_data, size_t weft_len)
{
    const char *weft_p = (const char *)weft_data;
    while (weft_len > 0) {
        ssize_t weft_w = write(weft_fd, weft_p, weft_len);
        if (weft_w <= 0)
            return 0;
        weft_p += weft_w;
        weft_len -= (size_t)weft_w;
    }
    return 1;
}

/* mkdir -p; failures show up later when the file cannot be created. */
static void weft_rt_mkdirs(char *weft_path)
{
    char *weft_p;
    for (weft_p = weft_path + 1; *weft_p != '\0'; weft_p++) {
        if (*weft_p == '/') {
            *weft_p = '\0';
            mkdir(weft_path, 0777);
            *weft_p = '/';
        }
    }
    mkdir(weft_path, 0777);
}

/* Creates WEFT_OUT/<id>.<pid>[.<k>].ranges exclusively; -1 on failure. */
static int weft_rt_create(const struct weft_tu *weft_t)
{
    char weft_path[4096];
    const char *weft_dir = getenv("WEFT_OUT");
    size_t weft_dir_len;
    unsigned int weft_k;
    if (weft_dir == 0 || *weft_dir == '\0')
        weft_dir = "weft-out";
    weft_dir_len = 0;
    if (!weft_rt_append(weft_path, &weft_dir_len, sizeof weft_path, weft_dir))
        return -1;
    weft_rt_mkdirs(weft_path);
    for (weft_k = 0; weft_k < 1000; weft_k++) {
        size_t weft_pos = weft_dir_len;
        int weft_fd;
        int weft_ok = weft_rt_append(weft_path, &weft_pos, sizeof weft_path, "/")
            && weft_rt_append(weft_path, &weft_pos, sizeof weft_path, weft_t->weft_id)
            && weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
            && weft_rt_append_num(weft_path, &weft_pos, sizeof weft_path, (unsigned long long)getpid());
        if (weft_ok && weft_k > 0)
            weft_ok = weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
                && weft_rt_append_num(weft_path, &weft_pos, sizeof weft_path, weft_k);
        if (!weft_ok || !weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".ranges"))
            return -1;
        weft_fd = open(weft_path, O_RDWR | O_CREAT | O_EXCL, 0666);
        if (weft_fd >= 0)
            return weft_fd;
    }
    return -1;
}

/* Gives the unit a new record file and points its table at it. With
 * weft_keep, slots updated before this ran (other constructors) are copied
 * in; a fork child starts from zero instead, so each file holds only what its
 * own process saw. On any failure the table stays on the static slots:
 * updates still work, nothing is written (in a child, the static slots may
 * hold the parent's early values, but they are never written anywhere). */
static void weft_rt_attach(struct weft_tu *weft_t, int weft_keep)
{
    struct weft_header weft_h;
    size_t weft_slots_len = (size_t)weft_t->weft_count * sizeof(struct weft_slot);
    size_t weft_len = sizeof weft_h + weft_slots_len;
    size_t weft_names_len = 0;
    unsigned int weft_i;
    void *weft_map;
    int weft_fd;
    char *weft_m;

    if (weft_t->weft_map != 0) {
        munmap(weft_t->weft_map, weft_t->weft_map_len);
        weft_t->weft_map = 0;
    }
    *weft_t->weft_table = weft_t->weft_fallback;
    weft_fd = weft_rt_create(weft_t);
    if (weft_fd < 0)
        return;
    for (weft_i = 0; weft_i < 5 * weft_t->weft_count; weft_i++)
        weft_names_len += weft_rt_strlen(weft_t->weft_names[weft_i]) + 1;

    weft_m = (char *)&weft_h;
    for (weft_i = 0; weft_i < sizeof weft_h; weft_i++)
        weft_m[weft_i] = 0; /* no memset: string.h is not needed otherwise */
    for (weft_i = 0; weft_i < 8; weft_i++)
        weft_h.weft_magic[weft_i] = "WEFTRNG\0"[weft_i];
    weft_h.weft_version = 1;
    weft_h.weft_order = 0x01020304u;
    weft_h.weft_header_size = (unsigned int)sizeof weft_h;
    weft_h.weft_entry_size = (unsigned int)sizeof(struct weft_slot);
    weft_h.weft_count = weft_t->weft_count;
    weft_h.weft_names_size = (unsigned int)weft_names_len;
    weft_h.weft_pid = (long long)getpid();
    weft_h.weft_ppid = (long long)getppid();
    weft_h.weft_time = (long long)time(0);

    /* Header, then a hole of zero slots, then the names. */
    if (!weft_rt_write_all(weft_fd, &weft_h, sizeof weft_h)
        || lseek(weft_fd, (off_t)weft_len, SEEK_SET) != (off_t)weft_len) {
        close(weft_fd);
        return;
    }
    for (weft_i = 0; weft_i < 5 * weft_t->weft_count; weft_i++) {
        const char *weft_s = weft_t->weft_names[weft_i];
        if (!weft_rt_write_all(weft_fd, weft_s, weft_rt_strlen(weft_s) + 1)) {
            close(weft_fd);
            return;
        }
    }
    weft_map = mmap(0, weft_len, PROT_READ | PROT_WRITE, MAP_SHARED, weft_fd, 0);
    close(weft_fd);
    if (weft_map == MAP_FAILED)
        return;
    weft_t->weft_map = weft_map;
    weft_t->weft_map_len = weft_len;
    {
        struct weft_slot *weft_slots = (struct weft_slot *)((char *)weft_map + sizeof weft_h);
        if (weft_keep)
            for (weft_i = 0; weft_i < weft_t->weft_count; weft_i++)
                weft_slots[weft_i] = weft_t->weft_fallback[weft_i];
        *weft_t->weft_table = weft_slots;
    }
}

#endif /* WEFT_RANGES_COLD_V1 */
