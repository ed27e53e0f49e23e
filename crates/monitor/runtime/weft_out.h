/* weft monitor runtime, common part (see docs/runtime.md).
 *
 * Every monitor's cold runtime text starts with this: the 64-byte header
 * every record file begins with, and the exclusive creation of
 * WEFT_OUT/<unit>.<pid>[.<k>].<ext>. The weaver puts it at the END of each
 * woven translation unit, after the program's own code, so the system
 * headers below are read after the program has settled its feature-test
 * macros. Only functions that glibc declares even under -std=c99 without
 * feature macros are used (no ftruncate, fileno or O_CLOEXEC). Every
 * identifier starts with weft_ so the program's macros cannot capture it;
 * the guard lets several monitors share one unit. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifndef WEFT_OUT_V1
#define WEFT_OUT_V1

/* The 64-byte file header, in native byte order (weft_order tells which). */
struct weft_header {
    char weft_magic[8];
    unsigned int weft_version;
    unsigned int weft_order;
    unsigned int weft_header_size;
    unsigned int weft_layout[3];       /* the monitor's own: sizes, counts */
    long long weft_pid;
    long long weft_ppid;
    long long weft_time;
    unsigned char weft_reserved[8];
};

typedef char weft_header_is_64_bytes[sizeof(struct weft_header) == 64 ? 1 : -1];

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

/* Creates WEFT_OUT/<id>.<pid>[.<k>].<ext> exclusively; -1 on failure. */
static int weft_rt_create(const char *weft_id, const char *weft_ext)
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
            && weft_rt_append(weft_path, &weft_pos, sizeof weft_path, weft_id)
            && weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
            && weft_rt_append_num(weft_path, &weft_pos, sizeof weft_path, (unsigned long long)getpid());
        if (weft_ok && weft_k > 0)
            weft_ok = weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
                && weft_rt_append_num(weft_path, &weft_pos, sizeof weft_path, weft_k);
        if (!weft_ok || !weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
            || !weft_rt_append(weft_path, &weft_pos, sizeof weft_path, weft_ext))
            return -1;
        weft_fd = open(weft_path, O_RDWR | O_CREAT | O_EXCL, 0666);
        if (weft_fd >= 0)
            return weft_fd;
    }
    return -1;
}

/* Fills the common header: magic, format version, the three layout words
 * the monitor defines, and who wrote the file. */
static void weft_rt_header(struct weft_header *weft_h, const char *weft_magic, unsigned int weft_version,
                           unsigned int weft_a, unsigned int weft_b, unsigned int weft_c)
{
    unsigned int weft_i;
    char *weft_m = (char *)weft_h;
    for (weft_i = 0; weft_i < sizeof *weft_h; weft_i++)
        weft_m[weft_i] = 0; /* no memset: string.h is not needed otherwise */
    for (weft_i = 0; weft_i < 8; weft_i++)
        weft_h->weft_magic[weft_i] = weft_magic[weft_i];
    weft_h->weft_version = weft_version;
    weft_h->weft_order = 0x01020304u;
    weft_h->weft_header_size = (unsigned int)sizeof *weft_h;
    weft_h->weft_layout[0] = weft_a;
    weft_h->weft_layout[1] = weft_b;
    weft_h->weft_layout[2] = weft_c;
    weft_h->weft_pid = (long long)getpid();
    weft_h->weft_ppid = (long long)getppid();
    weft_h->weft_time = (long long)time(0);
}

/* The decimal number in environment variable weft_name, or weft_default.
 * Not every monitor reads one, hence "unused". */
static __attribute__((unused)) unsigned long long weft_rt_env_number(const char *weft_name, unsigned long long weft_default)
{
    const char *weft_s = getenv(weft_name);
    unsigned long long weft_v = 0;
    if (weft_s == 0 || *weft_s < '0' || *weft_s > '9')
        return weft_default;
    while (*weft_s >= '0' && *weft_s <= '9')
        weft_v = weft_v * 10 + (unsigned long long)(*weft_s++ - '0');
    return weft_v;
}

#endif /* WEFT_OUT_V1 */
