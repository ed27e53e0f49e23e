//! The SV-COMP harness: the `__VERIFIER_*` functions that benchmark
//! programs declare and leave undefined, defined so that the program runs
//! concretely. `__VERIFIER_nondet_X()` returns values from a stream seeded
//! by `WEFT_SEED` (docs/nonterm.md, "The draws"): per draw a value of the
//! dictionary (0, ±1, ±2, type bounds, and the program's own constants
//! with their neighbours, from `WEFT_NONDET_DICT`), a small value
//! (−16..16; −2..2 under seeds 2 mod 4), or a wide one, whose magnitude
//! stays within 2^16 but under seeds 4 mod 5 (any bits then), so that a
//! drawn size fits on the stack in most runs; under seeds 3 mod 4 each
//! call site keeps the value it drew first for the whole run; the run's
//! first calls may be given their values in `WEFT_NONDET_PRESET`, from a
//! solver's model of a loop's recurrence condition. When
//! `WEFT_NONDET_INPUT` names a file (`-`: the standard input, as AFL++
//! gives its test case), the values are that file's bytes instead, each
//! call taking its type's size, little-endian, and 0 past the end
//! ([`INPUT_VARIABLE`]). Every type name
//! SV-COMP uses is defined (`int`, `uint` and `unsigned_int`, `char`,
//! `uchar`, `short`, `long`, `bool`, `float`, `double`, `pointer`,
//! `size_t`, …); `__VERIFIER_assert(0)`, `__VERIFIER_error()` and
//! `reach_error()` abort (or, under `WEFT_VERIFIER_ERROR=exit`, end the
//! run with status 0, for a fuzzer whose crashes are to be the monitor's
//! reports only); `__VERIFIER_assume(0)` ends the run quietly,
//! since the path it was on is not one the program may take. A run whose
//! stack pointer passes the stack's limit (a drawn size too large for
//! `alloca` or for a recursion's depth) leaves the file
//! [`STACK_OVERFLOW_MARK`] in `$WEFT_OUT` before it dies of SIGSEGV, so
//! that the check can tell the inputs' doing from the program's crash.
//! Every definition is weak, so a program that defines one itself keeps
//! its own.

/// The file, in the run's `$WEFT_OUT`, that says the run overflowed its
/// stack.
pub const STACK_OVERFLOW_MARK: &str = "svcomp.stack-overflow";

/// The environment variable naming the file whose bytes are the
/// `__VERIFIER_nondet_X()` values (`-`: the standard input), for a fuzzer
/// to choose them; unset, the values are drawn.
pub const INPUT_VARIABLE: &str = "WEFT_NONDET_INPUT";

/// The harness, a translation unit of its own.
pub const SVCOMP_HARNESS: &str = r#"/* weft's SV-COMP harness (docs/nonterm.md). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#define WEFT_WEAK __attribute__((weak))

static uint64_t weft_nondet_state;
static int weft_nondet_ready;

static uint64_t weft_nondet_seed(void)
{
    static uint64_t seed;
    static int read;
    if (!read) {
        const char *text = getenv("WEFT_SEED");
        seed = text ? strtoull(text, 0, 10) : 0;
        read = 1;
    }
    return seed;
}

/* The run's profile, from its seed: seeds 3 mod 4 keep one value per call
   site for the whole run (a loop that needs the same choice over and
   over, `while (__VERIFIER_nondet_bool())`, gets it; an array filled in a
   loop gets one value throughout); seeds 2 mod 4 draw their small values
   from -2..2; seeds 4 mod 5 draw wide values from all 64 bits, the others
   within 2^16, so that a drawn length given to alloca() fits on the stack
   in most runs. */
#define weft_sticky_run() (weft_nondet_seed() % 4 == 3)
#define weft_small_span() (weft_nondet_seed() % 4 == 2 ? 2 : 16)
#define weft_full_range_run() (weft_nondet_seed() % 5 == 4)
#define WEFT_WIDE_BITS 16

/* splitmix64, seeded from WEFT_SEED. */
static uint64_t weft_nondet_next(void)
{
    if (!weft_nondet_ready) {
        weft_nondet_state = weft_nondet_seed();
        weft_nondet_ready = 1;
    }
    uint64_t z = (weft_nondet_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Reads up to `most` integers separated by commas from the environment
   variable `name`; `given[i]` is 0 where a value is empty. */
static int weft_read_list(const char *name, int64_t *values, char *given, int most)
{
    const char *p = getenv(name);
    int n = 0;
    while (p && *p && n < most) {
        char *end;
        long long v = strtoll(p, &end, 10);
        given[n] = end != p;
        values[n++] = v;
        p = strchr(end, ',');
        if (p)
            p++;
    }
    return n;
}

/* WEFT_NONDET_PRESET: the values of the run's first calls, in the order
   they run; an empty one is drawn as usual. `weft nonterm check` sets it
   from a solver's model of a loop's recurrence condition, so that a rare
   value that reaches a hang is tried first. */
#define WEFT_PRESETS 64
static int64_t weft_preset[WEFT_PRESETS];
static char weft_preset_given[WEFT_PRESETS];
static int weft_presets = -1;
static int weft_calls;

static int weft_nondet_preset(uint64_t *value)
{
    if (weft_presets < 0)
        weft_presets = weft_read_list("WEFT_NONDET_PRESET", weft_preset, weft_preset_given, WEFT_PRESETS);
    if (weft_calls >= weft_presets)
        return 0;
    int call = weft_calls++;
    if (!weft_preset_given[call])
        return 0;
    *value = (uint64_t) weft_preset[call];
    return 1;
}

/* The dictionary: boundary values and type bounds, then the program's own
   constants with their neighbours (WEFT_NONDET_DICT, which `weft nonterm
   check` reads from the program's text). Outside the full-range runs,
   values beyond 2^16 in magnitude are left out, as the wide draws are. */
#define WEFT_DICT 256
static const int64_t weft_interesting[] = {
    0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 65535,
    2147483647, -2147483647 - 1, 4294967295, INT64_MAX, INT64_MIN,
};
static int64_t weft_dict[WEFT_DICT];
static int weft_dict_size = -1;

static void weft_dict_add(int64_t v)
{
    int bounded = !weft_full_range_run() && (v > (1 << WEFT_WIDE_BITS) || v < -(1 << WEFT_WIDE_BITS));
    if (!bounded && weft_dict_size < WEFT_DICT)
        weft_dict[weft_dict_size++] = v;
}

static uint64_t weft_dict_value(uint64_t r)
{
    if (weft_dict_size < 0) {
        int64_t values[WEFT_DICT];
        char given[WEFT_DICT];
        int n = weft_read_list("WEFT_NONDET_DICT", values, given, WEFT_DICT);
        weft_dict_size = 0;
        for (size_t i = 0; i < sizeof weft_interesting / sizeof *weft_interesting; i++)
            weft_dict_add(weft_interesting[i]);
        for (int i = 0; i < n; i++)
            if (given[i])
                weft_dict_add(values[i]);
    }
    return (uint64_t) weft_dict[r % weft_dict_size];
}

/* A wide value: any bits in a full-range run, else a magnitude below
   2^k with k drawn in 0..16 (small magnitudes as often as large ones). */
static uint64_t weft_wide_value(uint64_t r)
{
    if (weft_full_range_run())
        return weft_nondet_next();
    int64_t m = (int64_t) 1 << (r % (WEFT_WIDE_BITS + 1));
    return (uint64_t) ((int64_t) ((r >> 5) % (uint64_t) (2 * m + 1)) - m);
}

/* A fresh draw: a dictionary value one time in four, a small value one in
   two, a wide value one in four. */
static uint64_t weft_nondet_fresh(void)
{
    uint64_t r = weft_nondet_next();
    uint64_t span = weft_small_span();
    switch (r & 3) {
    case 0:
        return weft_dict_value(r >> 2);
    case 3:
        return weft_wide_value(r >> 2);
    default:
        return (uint64_t) ((int64_t) ((r >> 2) % (2 * span + 1)) - (int64_t) span);
    }
}

#define WEFT_STICKY_SITES 64
static void *weft_sticky_site[WEFT_STICKY_SITES];
static uint64_t weft_sticky_value[WEFT_STICKY_SITES];

/* A value for the call site `site`: a preset, a fresh draw, or under a
   sticky run the one it drew first (a full table falls back to fresh
   values). */
static uint64_t weft_nondet_at(void *site)
{
    uint64_t preset;
    if (weft_nondet_preset(&preset))
        return preset;
    if (!weft_sticky_run())
        return weft_nondet_fresh();
    for (int i = 0; i < WEFT_STICKY_SITES; i++) {
        if (weft_sticky_site[i] == site)
            return weft_sticky_value[i];
        if (!weft_sticky_site[i]) {
            weft_sticky_site[i] = site;
            return weft_sticky_value[i] = weft_nondet_fresh();
        }
    }
    return weft_nondet_fresh();
}

/* Stack overflow: a SIGSEGV whose stack pointer is past the stack's limit
   (RLIMIT_STACK below the stack's top; the top is taken as this
   constructor's frame, so the slack covers the environment and argument
   strings above it) leaves the mark file in $WEFT_OUT, then dies of the
   same signal as it would have. */
#define WEFT_STACK_SLACK (256 * 1024)
static char weft_overflow_mark[4096];
static uintptr_t weft_stack_limit;
static char weft_signal_stack[64 * 1024];

static uintptr_t weft_fault_sp(siginfo_t *info, void *context)
{
#if defined(__x86_64__)
    (void) info;
    return (uintptr_t) ((ucontext_t *) context)->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    (void) info;
    return (uintptr_t) ((ucontext_t *) context)->uc_mcontext.sp;
#else
    (void) context;
    return (uintptr_t) info->si_addr;
#endif
}

static void weft_on_segv(int sig, siginfo_t *info, void *context)
{
    if (weft_fault_sp(info, context) < weft_stack_limit) {
        int fd = open(weft_overflow_mark, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0)
            close(fd);
    }
    raise(sig); /* the handler was reset: delivered on return */
}

__attribute__((constructor)) static void weft_watch_stack(void)
{
    struct rlimit limit;
    char here;
    uintptr_t top = (uintptr_t) &here;
    if (getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= top)
        return;
    const char *out = getenv("WEFT_OUT");
    int n = snprintf(weft_overflow_mark, sizeof weft_overflow_mark, "%s/svcomp.stack-overflow",
                     out && *out ? out : "weft-out");
    if (n < 0 || (size_t) n >= sizeof weft_overflow_mark)
        return;
    weft_stack_limit = top - limit.rlim_cur + WEFT_STACK_SLACK;
    stack_t alt = {.ss_sp = weft_signal_stack, .ss_size = sizeof weft_signal_stack};
    struct sigaction action = {.sa_sigaction = weft_on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND};
    sigemptyset(&action.sa_mask);
    if (sigaltstack(&alt, 0) == 0)
        sigaction(SIGSEGV, &action, 0);
}

/* WEFT_NONDET_INPUT: a file (`-`: the standard input, as AFL++ gives its
   test case) whose bytes are the values, in the order the calls run: each
   call takes as many bytes as its type has, little-endian. Past the end,
   every byte is 0, so the input alone decides the run (replaying a crash
   needs no seed), and an input ending in zero bytes runs as the input
   without them, which a fuzzer's trimming relies on. A file that cannot be
   read ends the run with status 125. */
#define WEFT_INPUT_MOST (1 << 20)
static unsigned char *weft_input;
static size_t weft_input_size, weft_input_at;
static int weft_input_state = -1; /* -1 unread, 0 none, 1 given */

static int weft_input_given(void)
{
    if (weft_input_state >= 0)
        return weft_input_state;
    const char *path = getenv("WEFT_NONDET_INPUT");
    weft_input_state = path && *path;
    if (!weft_input_state)
        return 0;
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    weft_input = malloc(WEFT_INPUT_MOST);
    if (!in || !weft_input) {
        fprintf(stderr, "weft harness: cannot read WEFT_NONDET_INPUT=%s\n", path);
        exit(125);
    }
    weft_input_size = fread(weft_input, 1, WEFT_INPUT_MOST, in);
    return 1;
}

/* The next `n` bytes of the input (at most 8) as an unsigned
   little-endian number; 0 past the end. */
static uint64_t weft_input_take(size_t n)
{
    uint64_t value = 0;
    for (size_t i = 0; i < n; i++, weft_input_at++)
        if (weft_input_at < weft_input_size)
            value |= (uint64_t) weft_input[weft_input_at] << (8 * i);
    return value;
}

/* A value of `n` bytes for the call site `site`: from the input when one
   is given, else from the seeded stream. */
static uint64_t weft_nondet_sized(size_t n, void *site)
{
    return weft_input_given() ? weft_input_take(n) : weft_nondet_at(site);
}

/* Floating values: the input's bytes are the IEEE bits (any value, NaN
   included, as SV-COMP allows); a draw is an integer's value. */
static float weft_nondet_float_bits(void *site)
{
    float f;
    uint32_t bits;
    if (!weft_input_given())
        return (float) (int64_t) weft_nondet_at(site);
    bits = (uint32_t) weft_input_take(sizeof bits);
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double weft_nondet_double_bits(void *site)
{
    double d;
    uint64_t bits;
    if (!weft_input_given())
        return (double) (int64_t) weft_nondet_at(site);
    bits = weft_input_take(sizeof bits);
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A 128-bit value: 16 bytes of the input, low half first; or a draw
   widened from 64 bits (sign-extended for the signed type). */
static unsigned __int128 weft_nondet_wide(int sign, void *site)
{
    if (!weft_input_given()) {
        uint64_t bits = weft_nondet_at(site);
        return sign ? (unsigned __int128) (__int128) (int64_t) bits : bits;
    }
    uint64_t low = weft_input_take(8);
    return (unsigned __int128) weft_input_take(8) << 64 | low;
}

#define weft_nondet_bits(type) weft_nondet_sized(sizeof(type), __builtin_return_address(0))

WEFT_WEAK _Bool __VERIFIER_nondet_bool(void) { return weft_nondet_bits(_Bool) & 1; }
WEFT_WEAK char __VERIFIER_nondet_char(void) { return (char) weft_nondet_bits(char); }
WEFT_WEAK unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char) weft_nondet_bits(unsigned char); }
WEFT_WEAK short __VERIFIER_nondet_short(void) { return (short) weft_nondet_bits(short); }
WEFT_WEAK unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short) weft_nondet_bits(unsigned short); }
WEFT_WEAK int __VERIFIER_nondet_int(void) { return (int) weft_nondet_bits(int); }
WEFT_WEAK unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int) weft_nondet_bits(unsigned int); }
WEFT_WEAK unsigned int __VERIFIER_nondet_unsigned_int(void) { return (unsigned int) weft_nondet_bits(unsigned int); }
WEFT_WEAK unsigned int __VERIFIER_nondet_unsigned(void) { return (unsigned int) weft_nondet_bits(unsigned int); }
WEFT_WEAK unsigned char __VERIFIER_nondet_unsigned_char(void) { return (unsigned char) weft_nondet_bits(unsigned char); }
WEFT_WEAK unsigned short __VERIFIER_nondet_unsigned_short(void) { return (unsigned short) weft_nondet_bits(unsigned short); }
WEFT_WEAK unsigned long __VERIFIER_nondet_unsigned_long(void) { return (unsigned long) weft_nondet_bits(unsigned long); }
WEFT_WEAK _Bool __VERIFIER_nondet__Bool(void) { return weft_nondet_bits(_Bool) & 1; }
WEFT_WEAK signed char __VERIFIER_nondet_schar(void) { return (signed char) weft_nondet_bits(signed char); }
WEFT_WEAK size_t __VERIFIER_nondet_size_t(void) { return (size_t) weft_nondet_bits(size_t); }
WEFT_WEAK long long __VERIFIER_nondet_loff_t(void) { return (long long) weft_nondet_bits(long long); }
WEFT_WEAK unsigned int __VERIFIER_nondet_u32(void) { return (unsigned int) weft_nondet_bits(unsigned int); }
WEFT_WEAK unsigned short __VERIFIER_nondet_u16(void) { return (unsigned short) weft_nondet_bits(unsigned short); }
WEFT_WEAK unsigned char __VERIFIER_nondet_u8(void) { return (unsigned char) weft_nondet_bits(unsigned char); }
WEFT_WEAK __int128 __VERIFIER_nondet_int128(void) { return (__int128) weft_nondet_wide(1, __builtin_return_address(0)); }
WEFT_WEAK unsigned __int128 __VERIFIER_nondet_uint128(void) { return weft_nondet_wide(0, __builtin_return_address(0)); }
WEFT_WEAK long __VERIFIER_nondet_long(void) { return (long) weft_nondet_bits(long); }
WEFT_WEAK unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long) weft_nondet_bits(unsigned long); }
WEFT_WEAK long long __VERIFIER_nondet_longlong(void) { return (long long) weft_nondet_bits(long long); }
WEFT_WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return (unsigned long long) weft_nondet_bits(unsigned long long); }
WEFT_WEAK float __VERIFIER_nondet_float(void) { return weft_nondet_float_bits(__builtin_return_address(0)); }
WEFT_WEAK double __VERIFIER_nondet_double(void) { return weft_nondet_double_bits(__builtin_return_address(0)); }
WEFT_WEAK void *__VERIFIER_nondet_pointer(void) { return 0; }
WEFT_WEAK void __VERIFIER_assume(int condition) { if (!condition) exit(0); }
/* A failed check aborts, but ends the run quietly under
   WEFT_VERIFIER_ERROR=exit: a fuzzer hunting hangs then counts only the
   monitor's reports as crashes. */
static void weft_verifier_error(void)
{
    const char *how = getenv("WEFT_VERIFIER_ERROR");
    if (how && strcmp(how, "exit") == 0)
        exit(0);
    abort();
}

WEFT_WEAK void __VERIFIER_error(void) { weft_verifier_error(); }
WEFT_WEAK void __VERIFIER_assert(int condition) { if (!condition) weft_verifier_error(); }
WEFT_WEAK void reach_error(void) { weft_verifier_error(); }
WEFT_WEAK void __VERIFIER_atomic_begin(void) {}
WEFT_WEAK void __VERIFIER_atomic_end(void) {}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// The file the harness creates is the one `weft nonterm check` looks
    /// for.
    #[test]
    fn the_harness_writes_the_mark_the_check_reads() {
        assert!(SVCOMP_HARNESS.contains(&format!("\"%s/{STACK_OVERFLOW_MARK}\"")));
    }

    /// The variable the harness reads its input from is the documented
    /// one.
    #[test]
    fn the_harness_reads_the_input_variable() {
        assert!(SVCOMP_HARNESS.contains(&format!("getenv(\"{INPUT_VARIABLE}\")")));
    }
}
