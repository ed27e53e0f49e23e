//! The SV-COMP harness: the `__VERIFIER_*` functions that benchmark
//! programs declare and leave undefined, defined so that the program runs
//! concretely. `__VERIFIER_nondet_X()` returns values from a seeded stream
//! (`WEFT_SEED`), half of them small (−16..16, where loop bounds and steps
//! live; −2..2 under seeds 2 mod 4) and half any bits, and under seeds
//! 3 mod 4 one value per call site for the whole run, under every type name SV-COMP uses (`int`,
//! `uint` and `unsigned_int`, `char`, `uchar`, `short`, `long`, `bool`,
//! `float`, `double`, `pointer`, `size_t`, …); `__VERIFIER_assert(0)`,
//! `__VERIFIER_error()` and `reach_error()` abort; `__VERIFIER_assume(0)` ends the run quietly,
//! since the path it was on is not one the program may take. Every
//! definition is weak, so a program that defines one itself keeps its own.

/// The harness, a translation unit of its own.
pub const SVCOMP_HARNESS: &str = r#"/* weft's SV-COMP harness (docs/nonterm.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define WEFT_WEAK __attribute__((weak))

static uint64_t weft_nondet_state;
static int weft_nondet_ready;

/* The run's seed picks how values are drawn: seeds 3 mod 4 make every
   call site return one value for the whole run (a loop that needs the
   same choice over and over, `while (__VERIFIER_nondet_bool())`, gets it;
   an array filled in a loop gets one value throughout, so only a quarter
   of the runs do this); seeds 2 mod 4 draw small values from -2..2
   (boundary values such as 0 come one time in five instead of one in
   33). */
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

#define WEFT_STICKY_SITES 64
static void *weft_sticky_site[WEFT_STICKY_SITES];
static uint64_t weft_sticky_value[WEFT_STICKY_SITES];

static uint64_t weft_nondet_fresh(void)
{
    uint64_t r = weft_nondet_next();
    uint64_t span = weft_nondet_seed() % 4 == 2 ? 2 : 16;
    if (r & 1)
        return (uint64_t) ((int64_t) ((r >> 1) % (2 * span + 1)) - (int64_t) span);
    return weft_nondet_next();
}

/* A value for the call site `site`: fresh, or under a seed 3 mod 4 the one
   it drew first (a full table falls back to fresh values). */
static uint64_t weft_nondet_at(void *site)
{
    if (weft_nondet_seed() % 4 != 3)
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

#define weft_nondet_bits() weft_nondet_at(__builtin_return_address(0))

WEFT_WEAK _Bool __VERIFIER_nondet_bool(void) { return weft_nondet_bits() & 1; }
WEFT_WEAK char __VERIFIER_nondet_char(void) { return (char) weft_nondet_bits(); }
WEFT_WEAK unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char) weft_nondet_bits(); }
WEFT_WEAK short __VERIFIER_nondet_short(void) { return (short) weft_nondet_bits(); }
WEFT_WEAK unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short) weft_nondet_bits(); }
WEFT_WEAK int __VERIFIER_nondet_int(void) { return (int) weft_nondet_bits(); }
WEFT_WEAK unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int) weft_nondet_bits(); }
WEFT_WEAK unsigned int __VERIFIER_nondet_unsigned_int(void) { return (unsigned int) weft_nondet_bits(); }
WEFT_WEAK unsigned int __VERIFIER_nondet_unsigned(void) { return (unsigned int) weft_nondet_bits(); }
WEFT_WEAK unsigned char __VERIFIER_nondet_unsigned_char(void) { return (unsigned char) weft_nondet_bits(); }
WEFT_WEAK unsigned short __VERIFIER_nondet_unsigned_short(void) { return (unsigned short) weft_nondet_bits(); }
WEFT_WEAK unsigned long __VERIFIER_nondet_unsigned_long(void) { return (unsigned long) weft_nondet_bits(); }
WEFT_WEAK _Bool __VERIFIER_nondet__Bool(void) { return weft_nondet_bits() & 1; }
WEFT_WEAK signed char __VERIFIER_nondet_schar(void) { return (signed char) weft_nondet_bits(); }
WEFT_WEAK size_t __VERIFIER_nondet_size_t(void) { return (size_t) weft_nondet_bits(); }
WEFT_WEAK long long __VERIFIER_nondet_loff_t(void) { return (long long) weft_nondet_bits(); }
WEFT_WEAK unsigned int __VERIFIER_nondet_u32(void) { return (unsigned int) weft_nondet_bits(); }
WEFT_WEAK unsigned short __VERIFIER_nondet_u16(void) { return (unsigned short) weft_nondet_bits(); }
WEFT_WEAK unsigned char __VERIFIER_nondet_u8(void) { return (unsigned char) weft_nondet_bits(); }
WEFT_WEAK __int128 __VERIFIER_nondet_int128(void) { return (__int128) (int64_t) weft_nondet_bits(); }
WEFT_WEAK unsigned __int128 __VERIFIER_nondet_uint128(void) { return (unsigned __int128) weft_nondet_bits(); }
WEFT_WEAK long __VERIFIER_nondet_long(void) { return (long) weft_nondet_bits(); }
WEFT_WEAK unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long) weft_nondet_bits(); }
WEFT_WEAK long long __VERIFIER_nondet_longlong(void) { return (long long) weft_nondet_bits(); }
WEFT_WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return (unsigned long long) weft_nondet_bits(); }
WEFT_WEAK float __VERIFIER_nondet_float(void) { return (float) (int64_t) weft_nondet_bits(); }
WEFT_WEAK double __VERIFIER_nondet_double(void) { return (double) (int64_t) weft_nondet_bits(); }
WEFT_WEAK void *__VERIFIER_nondet_pointer(void) { return 0; }
WEFT_WEAK void __VERIFIER_assume(int condition) { if (!condition) exit(0); }
WEFT_WEAK void __VERIFIER_error(void) { abort(); }
WEFT_WEAK void __VERIFIER_assert(int condition) { if (!condition) abort(); }
WEFT_WEAK void reach_error(void) { abort(); }
WEFT_WEAK void __VERIFIER_atomic_begin(void) {}
WEFT_WEAK void __VERIFIER_atomic_end(void) {}
"#;
