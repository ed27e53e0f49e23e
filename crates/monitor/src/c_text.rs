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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_are_identifiers_and_strings_are_escaped() {
        assert_eq!(unit_stem("lib/a-b.c"), "lib_a_b_c");
        assert_eq!(unit_stem(""), "unit");
        assert_eq!(c_string("a\"b?\n"), "\"a\\\"b\\?\\012\"");
    }
}
