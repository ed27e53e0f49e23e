//! Reading a value by the type the compiler sees, not the one weft
//! resolved: C11 `_Generic` selections on the value's expression.
//!
//! weft resolves a typedef from the `#if` branch its front end keeps, so
//! the type it declares for `*p` can be a struct in the configuration
//! being built (gnulib's `glthread/lock.h` declares its lock types per
//! threading configuration). Casting such a value to an integer does not
//! compile. Here the compiler picks: the size of the value when its actual
//! type is of the class weft declared (integers for `i64`/`u64`, floating
//! types for `f64`), 0 otherwise; and a reader from
//! `runtime/weft_read_hot.h` that takes the value's address as a
//! `const void *`, so every association of the selection compiles whatever
//! the real type is. The selections are marked `__extension__` so that
//! `-std=c99 -pedantic` builds accept them.

use super::spec::VarKind;

/// The C types of the integer class, with their readers.
const INTEGERS: &[(&str, &str)] = &[
    ("char", "weft_rd_c"),
    ("signed char", "weft_rd_sc"),
    ("unsigned char", "weft_rd_uc"),
    ("short", "weft_rd_s"),
    ("unsigned short", "weft_rd_us"),
    ("int", "weft_rd_i"),
    ("unsigned int", "weft_rd_u"),
    ("long", "weft_rd_l"),
    ("unsigned long", "weft_rd_ul"),
    ("long long", "weft_rd_ll"),
    ("unsigned long long", "weft_rd_ull"),
    ("_Bool", "weft_rd_b"),
];

/// The C types of the floating class, with their readers.
const FLOATING: &[(&str, &str)] = &[
    ("float", "weft_rd_f"),
    ("double", "weft_rd_d"),
    ("long double", "weft_rd_ld"),
];

/// The types a value declared as `kind` may actually have; none for
/// addresses, which are never read through.
fn class(kind: VarKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        VarKind::I64 | VarKind::U64 => INTEGERS,
        VarKind::F64 => FLOATING,
        VarKind::Pointer => &[],
    }
}

/// `__extension__ _Generic((value), T1: e1, …, default: otherwise)`.
fn selection(value: &str, cases: impl Iterator<Item = String>, otherwise: &str) -> String {
    let cases: Vec<String> = cases.collect();
    format!(
        "(__extension__ _Generic(({value}), {}default: {otherwise}))",
        cases.iter().map(|c| format!("{c}, ")).collect::<String>()
    )
}

/// A C constant expression: the size of `value` when its actual type is of
/// `kind`'s class, else 0. `value` is not evaluated.
pub fn size(kind: VarKind, value: &str) -> String {
    let cases = class(kind).iter().map(|(t, _)| format!("{t}: sizeof({t})"));
    selection(value, cases, "0")
}

/// A C expression of type `unsigned long long`: `value` read at `address`
/// (a `const void *`) by the reader of its actual type, 0 when that type
/// is not of `kind`'s class. Only valid once the bytes are known readable.
pub fn read(kind: VarKind, value: &str, address: &str) -> String {
    let cases = class(kind).iter().map(|(t, r)| format!("{t}: {r}"));
    format!(
        "{}((const void *)({address}))",
        selection(value, cases, "weft_rd_none")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_floating_values_select_their_class_only() {
        let s = size(VarKind::I64, "*(p)");
        assert!(
            s.starts_with("(__extension__ _Generic((*(p)), char: sizeof(char), "),
            "{s}"
        );
        assert!(s.ends_with("_Bool: sizeof(_Bool), default: 0))"), "{s}");
        assert!(!s.contains("double"), "{s}");
        let r = read(VarKind::F64, "*(p)", "p");
        assert_eq!(
            r,
            "(__extension__ _Generic((*(p)), float: weft_rd_f, double: weft_rd_d, \
             long double: weft_rd_ld, default: weft_rd_none))((const void *)(p))"
        );
        assert_eq!(
            size(VarKind::Pointer, "*(q)"),
            "(__extension__ _Generic((*(q)), default: 0))"
        );
    }

    #[test]
    fn every_reader_is_defined_by_the_runtime() {
        let runtime = include_str!("../../runtime/weft_read_hot.h");
        for (_, reader) in INTEGERS.iter().chain(FLOATING) {
            assert!(
                runtime.contains(&format!(" {reader}(const void *weft_a)")),
                "{reader}"
            );
        }
        assert!(runtime.contains(" weft_rd_none(const void *weft_a)"));
    }
}
