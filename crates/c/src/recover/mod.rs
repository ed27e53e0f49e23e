//! Error-driven repairs: after a parse, look at the tokens around each
//! ERROR or MISSING node and apply the name- and shape-based heuristics
//! there only, where no definition told us what a macro is.
//!
//! [`fallback`] holds the coarse repairs (a conditional group's kept
//! branch, a group skipped whole, old-style declarations dropped);
//! [`tokens`] the fine ones, token by token inside an error's window.

mod fallback;
mod tokens;

pub use fallback::{GroupRepair, old_style_fallback, skip_unreadable_groups};

use super::classify::macro_shaped;
use super::conditional::CondGroup;
use super::lexer::TokenKind;
use super::macros::MacroTable;
use super::repair::TokenInfo;
use super::rewrite::RewriteSet;
use std::ops::Range;

/// C keywords: never macros, never culprits.
const KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "_Bool",
];

/// True for C keywords.
pub fn keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// Token index range covering original bytes `range`, widened back to the
/// start of the statement or line so that a culprit before the point where
/// the parser gave up is included.
pub fn window(src: &str, info: &TokenInfo, range: &Range<usize>) -> Range<usize> {
    let toks = &info.tokens;
    let Range {
        start: mut first,
        end: last,
    } = error_tokens(info, range);
    let line = toks.get(first).map_or(0, |t| info.line(t));
    let mut back = 0;
    while first > 0 && back < 8 {
        let p = &toks[first - 1];
        if info.end_line(p) + 1 < line || (back >= 2 && matches!(p.text(src), ";" | "{" | "}")) {
            break;
        }
        first -= 1;
        back += 1;
    }
    first..last.max(first).min(toks.len())
}

/// Text blanked by a repair, reported by the front end.
pub struct Skipped {
    pub range: Range<usize>,
    pub culprit: Option<String>,
    pub reason: String,
    /// Reported aside from the problems, because the code around stays
    /// understood: a whole conditional group (not code) or old-style
    /// parameter declarations. Otherwise a skipped declaration, a problem.
    pub aside: bool,
}

/// Token range of original bytes `range` (at least one token when any).
pub fn error_tokens(info: &TokenInfo, range: &Range<usize>) -> Range<usize> {
    let toks = &info.tokens;
    let first = toks.partition_point(|t| t.range().end <= range.start);
    let last = toks.partition_point(|t| t.range().start < range.end.max(range.start + 1));
    // An empty range (a MISSING `;` after `if (c)`) marks the token after
    // it: a conditional group there (`#ifdef X return 1; #else …`, a
    // statement per branch) is the error's.
    first..last.max(first + 1).min(toks.len()).max(first)
}

/// Applies heuristic repairs inside `win` (the widened window of the error
/// at token range `err`) and returns what was skipped. `group_state` is the
/// groups' state at the start of the round and the state being updated.
pub fn recover(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    groups: &[CondGroup],
    group_state: (&[GroupRepair], &mut [GroupRepair]),
    (err, win): (Range<usize>, Range<usize>),
    set: &mut RewriteSet,
) -> Vec<Skipped> {
    let mut blanked = fallback::repair_groups(src, info, macros, groups, group_state, (&err, &win), set);
    let mut i = win.start;
    while i < win.end {
        i = tokens::repair_token(src, info, macros, i, set, &mut blanked) + 1;
    }
    blanked
}

/// The identifier most likely behind an error in `win`: an unknown
/// macro-shaped name first, then any macro, then any non-keyword name.
pub fn culprit(src: &str, info: &TokenInfo, macros: &MacroTable, win: Range<usize>) -> Option<String> {
    let idents: Vec<&str> = info.tokens[win]
        .iter()
        .filter(|t| t.kind == TokenKind::Ident)
        .map(|t| t.text(src))
        .filter(|w| !keyword(w))
        .collect();
    idents
        .iter()
        .find(|w| macro_shaped(w) && macros.get(w).is_none())
        .or_else(|| idents.iter().find(|w| macros.get(w).is_some()))
        .or_else(|| idents.first())
        .map(|w| w.to_string())
}
