//! Pieces of the C text every monitor generates for a woven unit.

use std::fmt::Write as _;

/// The longest identifier stem derived from a path; keeps record file names
/// well under NAME_MAX. Stems only need to be unique within one unit.
const MAX_STEM: usize = 80;

/// The identifier stem of the unit at `file` (its path relative to the
/// program's root): the suffix of its generated C names and the first part
/// of its record files' names.
pub fn unit_stem(file: &str) -> String {
    let mut stem: String = file
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(MAX_STEM)
        .collect();
    if stem.is_empty() {
        stem.push_str("unit");
    }
    stem
}

/// A C string literal for `s`. Escapes `?` against trigraphs (on under
/// -std=c99) and writes other bytes outside printable ASCII as 3-digit octal,
/// which cannot swallow a following digit.
pub fn c_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

/// `text` under the guard macro `WEFT_<part>_<stem>`, so that a woven
/// file another one `#include`s (an implementation file a driver includes
/// once per configuration, with different macros) defines its per-unit
/// state, table and constructor once per translation unit: the copies of
/// its code share them, as they share its record.
pub fn once_per_unit(part: &str, stem: &str, text: &str) -> String {
    once(&format!("WEFT_{part}_{stem}"), text)
}

/// `text` under the guard macro `guard`: defined by the first copy a
/// translation unit reads, skipped in the others.
pub fn once(guard: &str, text: &str) -> String {
    format!("#ifndef {guard}\n#define {guard}\n{text}#endif /* {guard} */\n")
}

/// The per-unit hooks of a monitor whose C names start with `prefix`: a
/// constructor (it also runs in shared libraries) running `init`, and a
/// fork handler running `child` in a fork's child so that the child writes
/// its own record. Both are C statements.
pub fn unit_hooks(prefix: &str, stem: &str, init: &str, child: &str) -> String {
    format!(
        "static void {prefix}_child_{stem}(void)\n{{\n    {child}\n}}\n\
         static void {prefix}_init_{stem}(void) __attribute__((constructor));\n\
         static void {prefix}_init_{stem}(void)\n{{\n    {init}\n    WEFT_AT_FORK_CHILD({prefix}_child_{stem});\n}}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_are_identifiers_and_strings_are_escaped() {
        assert_eq!(unit_stem("lib/a-b.c"), "lib_a_b_c");
        assert_eq!(unit_stem(""), "unit");
        assert_eq!(c_string("a\"b?\n"), "\"a\\\"b\\?\\012\"");
    }

    #[test]
    fn per_unit_text_is_guarded_by_its_unit_and_part() {
        let text = once_per_unit("TRACE_TU", "lib_a_c", "int x;\n");
        assert_eq!(
            text,
            "#ifndef WEFT_TRACE_TU_lib_a_c\n#define WEFT_TRACE_TU_lib_a_c\nint x;\n\
             #endif /* WEFT_TRACE_TU_lib_a_c */\n"
        );
        let hooks = unit_hooks("weft_nt", "a_c", "go();", "forget();");
        assert!(hooks.contains("static void weft_nt_init_a_c(void) __attribute__((constructor));"));
        assert!(hooks.contains("WEFT_AT_FORK_CHILD(weft_nt_child_a_c);"));
        assert!(hooks.contains("{\n    forget();\n}"));
    }
}
