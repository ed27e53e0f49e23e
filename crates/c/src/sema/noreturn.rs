//! Functions that never return: the standard ones by name, and functions
//! declared `_Noreturn`, `noreturn` (`<stdnoreturn.h>`),
//! `__attribute__ ((noreturn))` / `((__noreturn__))`, `[[noreturn]]`,
//! `__declspec (noreturn)`, or with a project macro that expands to one of
//! these (gnulib's `_GL_ATTRIBUTE_NORETURN`).
//!
//! The front end blanks attribute macros in the view, so a declaration's
//! attribute words are read from the original text around its declarator
//! ([`attribute_words`]) and judged when asked ([`declares_noreturn`]),
//! against the `#define`s of every file and header the semantics read.

use std::collections::HashSet;
use std::ops::Range;

use tree_sitter::Node;

use crate::{MacroTable, ParsedFile};

/// Words that make a declaration noreturn wherever they appear among its
/// specifiers and attributes.
const NORETURN_WORDS: &[&str] = &["_Noreturn", "noreturn", "__noreturn__"];

/// Standard functions that do not return (C11 7.22.4, 7.13.2, 7.26.5.5,
/// POSIX `_exit`, `siglongjmp`, `pthread_exit`) and GCC's builtins that
/// end control flow. Their declarations are in system headers, which are
/// never read, so they are known by name.
const STANDARD: &[&str] = &[
    "exit",
    "_Exit",
    "_exit",
    "abort",
    "quick_exit",
    "thrd_exit",
    "longjmp",
    "siglongjmp",
    "pthread_exit",
    "__builtin_unreachable",
    "__builtin_trap",
];

/// True for the name of a standard function that does not return.
pub(super) fn is_standard(name: &str) -> bool {
    STANDARD.contains(&name)
}

/// The view ranges around the function declarator `declarator` of
/// declaration or definition `item` of `file` that hold its specifiers,
/// attributes and attribute macros: from the end of the item before it to
/// the name, and from the end of the function's own parameter list to the
/// body.
pub(super) fn attribute_ranges(
    file: &ParsedFile,
    item: Node<'_>,
    name: Node<'_>,
    params: Option<Node<'_>>,
) -> [Range<usize>; 2] {
    // Comments before the item are nodes of their own, so only blanked
    // macros and whitespace lie between the previous node and this one.
    let start = item
        .parent()
        .map_or(0, |parent| file.lead_start(item, parent, item.prev_sibling()));
    let end = item
        .child_by_field_name("body")
        .map_or(item.end_byte(), |b| b.start_byte());
    let after_params = params.map_or(name.end_byte(), |p| p.end_byte());
    [start..name.start_byte(), after_params..end]
}

/// The identifiers written in `ranges` (see [`attribute_ranges`]), once
/// each. `raw` gives the original text under a view range, blanked macros
/// included.
pub(super) fn attribute_words(ranges: &[Range<usize>], raw: &dyn Fn(Range<usize>) -> String) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for range in ranges {
        for word in identifiers(&raw(range.clone())) {
            if !words.iter().any(|w| w == word) {
                words.push(word.to_string());
            }
        }
    }
    words
}

/// True when one of `words` declares noreturn, directly or through
/// a macro of `macros` (any of its definitions, followed through other
/// macros).
pub(super) fn declares_noreturn(words: &[String], macros: &MacroTable) -> bool {
    let mut seen = HashSet::new();
    let mut todo: Vec<&str> = words.iter().map(String::as_str).collect();
    while let Some(word) = todo.pop() {
        // A macro named for it (`ATTRIBUTE_NORETURN`) says so even when its
        // definition is in a header weft does not read (`<config.h>`).
        if NORETURN_WORDS.contains(&word) || word.to_ascii_uppercase().contains("NORETURN") {
            return true;
        }
        if !seen.insert(word) {
            continue;
        }
        if let Some(m) = macros.get(word) {
            todo.extend(m.defs.iter().flat_map(|d| identifiers(&d.body)));
        }
    }
    false
}

fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}
