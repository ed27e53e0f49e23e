/* weft monitor runtime, common part (see docs/runtime.md).
 *
 * Every monitor's cold runtime text starts with this: the 64-byte header
 * every record file begins with, and the exclusive creation of
 * WEFT_OUT/<unit>.<pid>[.<k>].<ext>. The weaver puts it at the END of each
 * woven translation unit, after the program's own code. Every identifier
 * starts with weft_ so the program's macros cannot capture it; the guard
 * lets several monitors share one unit.
 *
 * The program's names are its own. A program may define read, write, open,
 * getenv... with other types (a static function, an external one, a macro
 * #define open my_open): so this text includes no header that declares a
 * function, and calls no libc function by its public name. Each call goes
 * through a weft_sys_ declaration whose assembler name (__asm__, not
 * subject to macros) is glibc's implementation-reserved alias (__write,
 * __open, __close, __lseek, __getpid, __environ, __errno_location,
 * __register_atfork, __snprintf_chk: exported, public symbol versions), a
 * name no conforming program defines. What has no such alias is a system
 * call made through syscall(2) (mkdirat, getppid, clock_gettime, mmap,
 * munmap, tgkill, process_vm_readv): numbers from <sys/syscall.h>, which
 * only defines macros. GCC and Clang both take asm labels. Elsewhere than
 * glibc the plain names are used (still immune to macros and clashes at
 * compile time, not to an external definition in the program). Constants
 * are Linux's generic values (x86, ARM, RISC-V, PowerPC, s390). */
#include <limits.h>
#include <stddef.h>
#include <sys/syscall.h>

#ifndef WEFT_OUT_V1
#define WEFT_OUT_V1

#ifdef __GLIBC__
#define WEFT_LIBC(weft_reserved, weft_plain) __asm__(weft_reserved)
#else
#define WEFT_LIBC(weft_reserved, weft_plain) __asm__(weft_plain)
#endif
extern long weft_sys_write(int, const void *, size_t) WEFT_LIBC("__write", "write");
extern int weft_sys_open(const char *, int, ...) WEFT_LIBC("__open", "open");
extern int weft_sys_close(int) WEFT_LIBC("__close", "close");
extern long weft_sys_lseek(int, long, int) WEFT_LIBC("__lseek", "lseek");
extern int weft_sys_getpid(void) WEFT_LIBC("__getpid", "getpid");
extern char **weft_sys_environ WEFT_LIBC("__environ", "environ");
extern int *weft_sys_errno(void) WEFT_LIBC("__errno_location", "__errno_location");
extern long weft_sys_syscall(long, ...) __asm__("syscall");
#ifdef __GLIBC__
/* What pthread_atfork does (glibc's libc_nonshared.a): the handler is
 * registered for, and dropped with, the object it is in. */
extern int weft_sys_register_atfork(void (*)(void), void (*)(void), void (*)(void), void *)
    __asm__("__register_atfork");
extern void *const __dso_handle __attribute__((__visibility__("hidden")));
#define WEFT_AT_FORK_CHILD(weft_child) weft_sys_register_atfork(0, 0, weft_child, __dso_handle)
#else
extern int weft_sys_pthread_atfork(void (*)(void), void (*)(void), void (*)(void)) __asm__("pthread_atfork");
#define WEFT_AT_FORK_CHILD(weft_child) weft_sys_pthread_atfork(0, 0, weft_child)
#endif
#define WEFT_O_RDWR 02
#define WEFT_O_CREAT 0100
#define WEFT_O_EXCL 0200
#define WEFT_SEEK_SET 0
#define WEFT_PROT_RW 3L /* PROT_READ | PROT_WRITE */
#define WEFT_MAP_SHARED 1L
#define WEFT_AT_FDCWD (-100L)

/* getenv, from the environment itself. */
static const char *weft_sys_getenv(const char *weft_name)
{
    char **weft_e;
    for (weft_e = weft_sys_environ; weft_e != 0 && *weft_e != 0; weft_e++) {
        const char *weft_a = *weft_e, *weft_b = weft_name;
        while (*weft_b != '\0' && *weft_a == *weft_b)
            weft_a++, weft_b++;
        if (*weft_b == '\0' && *weft_a == '=')
            return weft_a + 1;
    }
    return 0;
}

/* mmap of a whole file region read-write and shared; 0 on failure. */
static __attribute__((unused)) void *weft_sys_map(size_t weft_len, int weft_fd, long weft_at)
{
    long weft_r;
#ifdef SYS_mmap2
    weft_r = weft_sys_syscall(SYS_mmap2, 0L, weft_len, WEFT_PROT_RW, WEFT_MAP_SHARED, (long)weft_fd, weft_at / 4096);
#else
    weft_r = weft_sys_syscall(SYS_mmap, 0L, weft_len, WEFT_PROT_RW, WEFT_MAP_SHARED, (long)weft_fd, weft_at);
#endif
    return weft_r == -1 ? 0 : (void *)weft_r;
}

static __attribute__((unused)) void weft_sys_unmap(void *weft_p, size_t weft_len)
{
    weft_sys_syscall(SYS_munmap, weft_p, weft_len);
}

/* abort(): SIGABRT to this thread; should a handler return, a trap. */
static __attribute__((unused)) void weft_sys_abort(void)
{
    weft_sys_syscall(SYS_tgkill, (long)weft_sys_getpid(), weft_sys_syscall(SYS_gettid), 6L);
    __builtin_trap();
}

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
        long weft_w = weft_sys_write(weft_fd, weft_p, weft_len);
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
            weft_sys_syscall(SYS_mkdirat, WEFT_AT_FDCWD, weft_path, 0777L);
            *weft_p = '/';
        }
    }
    weft_sys_syscall(SYS_mkdirat, WEFT_AT_FDCWD, weft_path, 0777L);
}

/* Creates WEFT_OUT/<id>.<pid>[.<k>].<ext> exclusively; -1 on failure. */
static int weft_rt_create(const char *weft_id, const char *weft_ext)
{
    char weft_path[4096];
    const char *weft_dir = weft_sys_getenv("WEFT_OUT");
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
            && weft_rt_append_num(weft_path, &weft_pos, sizeof weft_path, (unsigned long long)weft_sys_getpid());
        if (weft_ok && weft_k > 0)
            weft_ok = weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
                && weft_rt_append_num(weft_path, &weft_pos, sizeof weft_path, weft_k);
        if (!weft_ok || !weft_rt_append(weft_path, &weft_pos, sizeof weft_path, ".")
            || !weft_rt_append(weft_path, &weft_pos, sizeof weft_path, weft_ext))
            return -1;
        weft_fd = weft_sys_open(weft_path, WEFT_O_RDWR | WEFT_O_CREAT | WEFT_O_EXCL, 0666);
        if (weft_fd >= 0)
            return weft_fd;
    }
    return -1;
}

/* Seconds since the epoch (time(0)). */
static long long weft_rt_now(void)
{
    long weft_ts[2] = {0, 0}; /* the kernel's struct timespec: time_t and long are both long on Linux */
    weft_sys_syscall(SYS_clock_gettime, 0L /* CLOCK_REALTIME */, weft_ts);
    return (long long)weft_ts[0];
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
    weft_h->weft_pid = (long long)weft_sys_getpid();
    weft_h->weft_ppid = (long long)weft_sys_syscall(SYS_getppid);
    weft_h->weft_time = weft_rt_now();
}

/* The decimal number in environment variable weft_name, or weft_default.
 * Not every monitor reads one, hence "unused". */
static __attribute__((unused)) unsigned long long weft_rt_env_number(const char *weft_name, unsigned long long weft_default)
{
    const char *weft_s = weft_sys_getenv(weft_name);
    unsigned long long weft_v = 0;
    if (weft_s == 0 || *weft_s < '0' || *weft_s > '9')
        return weft_default;
    while (*weft_s >= '0' && *weft_s <= '9')
        weft_v = weft_v * 10 + (unsigned long long)(*weft_s++ - '0');
    return weft_v;
}

#endif /* WEFT_OUT_V1 */
