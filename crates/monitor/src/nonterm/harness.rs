//! The SV-COMP harness: the `__VERIFIER_*` functions that benchmark
//! programs declare and leave undefined, defined so that the program runs
//! concretely. `__VERIFIER_nondet_X()` returns values from a seeded stream
//! (`WEFT_SEED`), half of them small (−16..16, where loop bounds and steps
//! live) and half any bits, under every type name SV-COMP uses (`int`,
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

/* splitmix64, seeded from WEFT_SEED. */
static uint64_t weft_nondet_next(void)
{
    if (!weft_nondet_ready) {
        const char *seed = getenv("WEFT_SEED");
        weft_nondet_state = seed ? strtoull(seed, 0, 10) : 0;
        weft_nondet_ready = 1;
    }
    uint64_t z = (weft_nondet_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t weft_nondet_bits(void)
{
    uint64_t r = weft_nondet_next();
    if (r & 1)
        return (uint64_t) (int64_t) ((int64_t) ((r >> 1) % 33) - 16);
    return weft_nondet_next();
}

WEFT_WEAK _Bool __VERIFIER_nondet_bool(void) { return weft_nondet_next() & 1; }
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
WEFT_WEAK _Bool __VERIFIER_nondet__Bool(void) { return weft_nondet_next() & 1; }
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
