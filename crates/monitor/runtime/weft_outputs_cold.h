/* weft outputs runtime, cold part (record format v1; see docs/outputs.md).
 *
 * Follows the common part (weft_out.h) at the END of each woven unit. The
 * unit's record WEFT_OUT/<unit>.<pid>.outputs is created at the first
 * value its process records (a process that records nothing writes
 * nothing): the common header, "unit\t<path>\n", then one line per value,
 * "<name>\t<value>\n", each appended with a single write(), so a crash or
 * _exit right after it keeps it. Layout words: declarations size, 0, 0.
 *
 * Value text, the same in every run: integers in decimal; float, double
 * and long double as printf's %.9g, %.17g and %.21Lg (round-trip exact,
 * "inf", "nan"; the locale's decimal point is always written "."); strings
 * in double quotes with \\ \" \n \t \r and \xHH escapes (every byte below
 * 0x20 or above 0x7e), at most WEFT_OUTPUTS_CAP bytes of value text: a
 * longer one is cut at the last whole escape that fits and ends "...; a
 * null string is null. Names are escaped the same way, without quotes, and
 * cut at WEFT_OUTPUTS_NAME_CAP bytes (ending ...). errno is kept. */

#ifndef WEFT_OUTPUTS_COLD_V1
#define WEFT_OUTPUTS_COLD_V1

/* snprintf through glibc's reserved checking entry (flag 0: no checks
 * beyond the size), for the reason weft_out.h gives. */
#ifdef __GLIBC__
extern int weft_sys_snprintf_chk(char *, size_t, int, size_t, const char *, ...) __asm__("__snprintf_chk");
#define WEFT_SNPRINTF(weft_b, weft_n, ...) weft_sys_snprintf_chk(weft_b, weft_n, 0, weft_n, __VA_ARGS__)
#else
extern int weft_sys_snprintf(char *, size_t, const char *, ...) __asm__("snprintf");
#define WEFT_SNPRINTF(weft_b, weft_n, ...) weft_sys_snprintf(weft_b, weft_n, __VA_ARGS__)
#endif

#define WEFT_OUTPUTS_CAP 4096
#define WEFT_OUTPUTS_NAME_CAP 1024

/* In a fork child: the child's first value creates its own record. */
static void weft_outputs_child(void)
{
    int weft_errno = *weft_sys_errno();
    if (weft_outputs_here.weft_fd >= 0)
        weft_sys_close(weft_outputs_here.weft_fd);
    weft_outputs_here.weft_fd = -1;
    weft_outputs_here.weft_lock = 0;
    *weft_sys_errno() = weft_errno;
}

/* Creates the record: header and declarations in one write; -2 on failure. */
static int weft_outputs_open(const struct weft_outputs_state *weft_s)
{
    struct weft_header weft_h;
    char weft_buf[sizeof(struct weft_header) + 4096 + 8];
    size_t weft_pos = sizeof weft_h;
    size_t weft_i;
    int weft_fd;
    if (weft_rt_strlen(weft_s->weft_unit) > 4096)
        return -2;
    if (!weft_rt_append(weft_buf, &weft_pos, sizeof weft_buf, "unit\t")
        || !weft_rt_append(weft_buf, &weft_pos, sizeof weft_buf, weft_s->weft_unit)
        || !weft_rt_append(weft_buf, &weft_pos, sizeof weft_buf, "\n"))
        return -2;
    weft_fd = weft_rt_create(weft_s->weft_id, "outputs");
    if (weft_fd < 0)
        return -2;
    weft_rt_header(&weft_h, "WEFTOUT", 1, (unsigned int)(weft_pos - sizeof weft_h), 0, 0);
    for (weft_i = 0; weft_i < sizeof weft_h; weft_i++)
        weft_buf[weft_i] = ((const char *)&weft_h)[weft_i];
    if (!weft_rt_write_all(weft_fd, weft_buf, weft_pos)) {
        weft_sys_close(weft_fd);
        return -2;
    }
    return weft_fd;
}

/* The record's descriptor, created at the first call (once, whatever the
 * threads); negative when there is none. */
static int weft_outputs_fd(void)
{
    struct weft_outputs_state *weft_s = &weft_outputs_here;
    int weft_fd = __atomic_load_n(&weft_s->weft_fd, __ATOMIC_ACQUIRE);
    if (weft_fd != -1)
        return weft_fd;
    while (__atomic_test_and_set(&weft_s->weft_lock, __ATOMIC_ACQUIRE))
        ;
    if (weft_s->weft_fd == -1) {
        if (!weft_s->weft_forks) {
            WEFT_AT_FORK_CHILD(weft_outputs_child);
            weft_s->weft_forks = 1;
        }
        __atomic_store_n(&weft_s->weft_fd, weft_outputs_open(weft_s), __ATOMIC_RELEASE);
    }
    weft_fd = weft_s->weft_fd;
    __atomic_clear(&weft_s->weft_lock, __ATOMIC_RELEASE);
    return weft_fd;
}

/* Appends weft_s escaped, never past weft_end; 0 when it had to stop early. */
static int weft_outputs_escape(char *weft_buf, size_t *weft_pos, size_t weft_end, const char *weft_s)
{
    static const char weft_hex[] = "0123456789abcdef";
    for (; *weft_s != '\0'; weft_s++) {
        unsigned char weft_c = (unsigned char)*weft_s;
        char weft_e[4];
        size_t weft_n = 2, weft_i;
        weft_e[0] = '\\';
        if (weft_c == '\\' || weft_c == '"')
            weft_e[1] = (char)weft_c;
        else if (weft_c == '\n')
            weft_e[1] = 'n';
        else if (weft_c == '\t')
            weft_e[1] = 't';
        else if (weft_c == '\r')
            weft_e[1] = 'r';
        else if (weft_c < 0x20 || weft_c > 0x7e) {
            weft_e[1] = 'x';
            weft_e[2] = weft_hex[weft_c >> 4];
            weft_e[3] = weft_hex[weft_c & 15];
            weft_n = 4;
        } else {
            weft_e[0] = (char)weft_c;
            weft_n = 1;
        }
        if (*weft_pos + weft_n > weft_end)
            return 0;
        for (weft_i = 0; weft_i < weft_n; weft_i++)
            weft_buf[(*weft_pos)++] = weft_e[weft_i];
    }
    return 1;
}

/* Writes the line "name\tvalue\n": weft_text as it is, or quoted and
 * escaped when weft_quoted. */
static void weft_outputs_emit(const char *weft_name, const char *weft_text, int weft_quoted)
{
    char weft_line[WEFT_OUTPUTS_NAME_CAP + WEFT_OUTPUTS_CAP + 8];
    size_t weft_pos = 0;
    int weft_errno = *weft_sys_errno();
    int weft_fd;
    if (!weft_outputs_escape(weft_line, &weft_pos, WEFT_OUTPUTS_NAME_CAP - 3, weft_name))
        weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "...");
    weft_line[weft_pos++] = '\t';
    if (weft_quoted) {
        size_t weft_end = weft_pos + WEFT_OUTPUTS_CAP - 4; /* the quotes and ... fit too */
        int weft_whole;
        weft_line[weft_pos++] = '"';
        weft_whole = weft_outputs_escape(weft_line, &weft_pos, weft_end, weft_text);
        weft_line[weft_pos++] = '"';
        if (!weft_whole)
            weft_rt_append(weft_line, &weft_pos, sizeof weft_line, "...");
    } else {
        weft_rt_append(weft_line, &weft_pos, sizeof weft_line, weft_text);
    }
    weft_line[weft_pos++] = '\n';
    weft_fd = weft_outputs_fd();
    if (weft_fd >= 0)
        weft_rt_write_all(weft_fd, weft_line, weft_pos);
    *weft_sys_errno() = weft_errno;
}

static void weft_output_u64(const char *weft_name, unsigned long long weft_v)
{
    char weft_num[24];
    size_t weft_pos = 0;
    weft_rt_append_num(weft_num, &weft_pos, sizeof weft_num, weft_v);
    weft_outputs_emit(weft_name, weft_num, 0);
}

static void weft_output_i64(const char *weft_name, long long weft_v)
{
    char weft_num[24];
    size_t weft_pos = 0;
    if (weft_v < 0) {
        weft_num[weft_pos++] = '-';
        weft_rt_append_num(weft_num, &weft_pos, sizeof weft_num, 0ULL - (unsigned long long)weft_v);
    } else {
        weft_rt_append_num(weft_num, &weft_pos, sizeof weft_num, (unsigned long long)weft_v);
    }
    weft_outputs_emit(weft_name, weft_num, 0);
}

/* Writes a number printf formatted, with any decimal point the locale
 * spells otherwise (one or more bytes) as ".". */
static void weft_outputs_float(const char *weft_name, const char *weft_text)
{
    char weft_num[64];
    size_t weft_pos = 0;
    for (; *weft_text != '\0' && weft_pos + 1 < sizeof weft_num; weft_text++) {
        char weft_c = *weft_text;
        int weft_plain = (weft_c >= '0' && weft_c <= '9') || (weft_c >= 'a' && weft_c <= 'z')
            || (weft_c >= 'A' && weft_c <= 'Z') || weft_c == '+' || weft_c == '-';
        if (weft_plain)
            weft_num[weft_pos++] = weft_c;
        else if (weft_pos == 0 || weft_num[weft_pos - 1] != '.')
            weft_num[weft_pos++] = '.';
    }
    weft_num[weft_pos] = '\0';
    weft_outputs_emit(weft_name, weft_num, 0);
}

static void weft_output_f32(const char *weft_name, float weft_v)
{
    char weft_num[64];
    int weft_errno = *weft_sys_errno();
    WEFT_SNPRINTF(weft_num, sizeof weft_num, "%.9g", (double)weft_v);
    *weft_sys_errno() = weft_errno;
    weft_outputs_float(weft_name, weft_num);
}

static void weft_output_f64(const char *weft_name, double weft_v)
{
    char weft_num[64];
    int weft_errno = *weft_sys_errno();
    WEFT_SNPRINTF(weft_num, sizeof weft_num, "%.17g", weft_v);
    *weft_sys_errno() = weft_errno;
    weft_outputs_float(weft_name, weft_num);
}

static void weft_output_f80(const char *weft_name, long double weft_v)
{
    char weft_num[64];
    int weft_errno = *weft_sys_errno();
    WEFT_SNPRINTF(weft_num, sizeof weft_num, "%.21Lg", weft_v);
    *weft_sys_errno() = weft_errno;
    weft_outputs_float(weft_name, weft_num);
}

static void weft_output_str(const char *weft_name, const char *weft_v)
{
    if (weft_v == 0)
        weft_outputs_emit(weft_name, "null", 0);
    else
        weft_outputs_emit(weft_name, weft_v, 1);
}

static void weft_output_none(const char *weft_name, const volatile void *weft_p)
{
    (void)weft_name;
    (void)weft_p;
}

#define WEFT_OUTPUTS_DEFINE_AT(weft_t, weft_n, weft_w)                              \
    static void weft_output_at_##weft_n(const char *weft_name, const weft_t *weft_p) \
    {                                                                              \
        if (weft_p != 0)                                                           \
            weft_output_##weft_w(weft_name, *weft_p);                              \
    }
WEFT_OUTPUTS_POINTEES(WEFT_OUTPUTS_DEFINE_AT)

#endif /* WEFT_OUTPUTS_COLD_V1 */
