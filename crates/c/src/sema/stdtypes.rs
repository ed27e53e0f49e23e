//! The standard library's usual typedefs, known by name so that weft never
//! has to parse system headers. The targets are those of glibc on LP64
//! (x86-64, aarch64); only the *category* (integer, pointer, struct, opaque)
//! matters to weft's clients, so the exact width is informative.

use super::ctype::{CType, TypeKind};

/// Integer typedefs and their usual underlying type.
const INTEGERS: &[(&str, &str)] = &[
    ("size_t", "unsigned long"),
    ("ssize_t", "long"),
    ("off_t", "long"),
    ("off64_t", "long"),
    ("ptrdiff_t", "long"),
    ("intptr_t", "long"),
    ("uintptr_t", "unsigned long"),
    ("intmax_t", "long"),
    ("uintmax_t", "unsigned long"),
    ("int8_t", "signed char"),
    ("int16_t", "short"),
    ("int32_t", "int"),
    ("int64_t", "long"),
    ("uint8_t", "unsigned char"),
    ("uint16_t", "unsigned short"),
    ("uint32_t", "unsigned int"),
    ("uint64_t", "unsigned long"),
    ("int_least8_t", "signed char"),
    ("int_least16_t", "short"),
    ("int_least32_t", "int"),
    ("int_least64_t", "long"),
    ("uint_least8_t", "unsigned char"),
    ("uint_least16_t", "unsigned short"),
    ("uint_least32_t", "unsigned int"),
    ("uint_least64_t", "unsigned long"),
    ("int_fast8_t", "signed char"),
    ("int_fast16_t", "long"),
    ("int_fast32_t", "long"),
    ("int_fast64_t", "long"),
    ("uint_fast8_t", "unsigned char"),
    ("uint_fast16_t", "unsigned long"),
    ("uint_fast32_t", "unsigned long"),
    ("uint_fast64_t", "unsigned long"),
    ("time_t", "long"),
    ("clock_t", "long"),
    ("suseconds_t", "long"),
    ("useconds_t", "unsigned int"),
    ("pid_t", "int"),
    ("uid_t", "unsigned int"),
    ("gid_t", "unsigned int"),
    ("mode_t", "unsigned int"),
    ("dev_t", "unsigned long"),
    ("ino_t", "unsigned long"),
    ("nlink_t", "unsigned long"),
    ("blksize_t", "long"),
    ("blkcnt_t", "long"),
    ("socklen_t", "unsigned int"),
    ("sig_atomic_t", "int"),
    ("wchar_t", "int"),
    ("wint_t", "unsigned int"),
    ("char16_t", "unsigned short"),
    ("char32_t", "unsigned int"),
    ("u_char", "unsigned char"),
    ("u_short", "unsigned short"),
    ("u_int", "unsigned int"),
    ("u_long", "unsigned long"),
];

/// Struct typedefs (used by value or, mostly, through pointers).
const STRUCTS: &[(&str, &str)] = &[
    ("FILE", "_IO_FILE"),
    ("DIR", "__dirstream"),
    ("fpos_t", "_G_fpos_t"),
    ("div_t", "div_t"),
    ("ldiv_t", "ldiv_t"),
    ("mbstate_t", "__mbstate_t"),
];

/// Types weft knows exist but does not model (arrays or builtins).
const OPAQUE: &[&str] = &[
    "va_list",
    "__builtin_va_list",
    "jmp_buf",
    "sigjmp_buf",
    "sigset_t",
];

/// The type a standard typedef name stands for, or `None` if the name is
/// not one of them.
pub fn standard_typedef(name: &str) -> Option<CType> {
    if name == "bool" {
        return Some(CType::new(TypeKind::Bool));
    }
    if let Some((_, target)) = INTEGERS.iter().find(|(n, _)| *n == name) {
        return Some(CType::new(TypeKind::Integer((*target).to_string())));
    }
    if let Some((_, tag)) = STRUCTS.iter().find(|(n, _)| *n == name) {
        return Some(CType::new(TypeKind::Struct {
            tag: Some((*tag).to_string()),
            union: false,
            def: None,
        }));
    }
    OPAQUE
        .contains(&name)
        .then(|| CType::new(TypeKind::Opaque(name.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_names_resolve() {
        assert!(standard_typedef("size_t").unwrap().is_primitive());
        assert!(standard_typedef("FILE").unwrap().is_struct());
        assert!(!standard_typedef("va_list").unwrap().is_primitive());
        assert!(standard_typedef("ulg").is_none());
    }
}
