//! Error-driven repairs: after a parse, look at the tokens around each
//! ERROR or MISSING node and apply the name- and shape-based heuristics
//! there only, where no definition told us what a macro is.

use super::classify::{MacroClass, attribute_word, iterator_name, macro_shaped};
use super::conditional::CondGroup;
use super::lexer::TokenKind;
use super::macros::MacroTable;
use super::repair::{
    OldStyle, TokenInfo, iterator_as_loop, specifier_word, split_args, terminate_statement, type_word,
};
use super::rewrite::{Rewrite, RewriteSet};
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

/// An identifier that may be an unknown (or misclassified) macro.
fn suspect(macros: &MacroTable, word: &str) -> bool {
    !keyword(word)
        && !matches!(word, "asm" | "__asm__" | "__asm")
        && (macro_shaped(word)
            || attribute_word(word)
            || matches!(
                macros.class(word),
                Some(MacroClass::Other | MacroClass::Statement)
            ))
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
    let line = toks.get(first).map_or(0, |t| t.line);
    let mut back = 0;
    while first > 0 && back < 8 {
        let p = &toks[first - 1];
        if p.end_line + 1 < line || (back >= 2 && matches!(p.text(src), ";" | "{" | "}")) {
            break;
        }
        first -= 1;
        back += 1;
    }
    first..last.max(first).min(toks.len())
}

/// How far a conditional group has been repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupRepair {
    /// Read as written.
    None,
    /// Only the kept branch is read.
    KeptBranch,
    /// Even the kept branch failed (e.g. `#if X` around plain prose): the
    /// whole group is blanked and reported.
    Skipped,
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
    let first = toks.partition_point(|t| t.range.end <= range.start);
    let last = toks.partition_point(|t| t.range.start < range.end.max(range.start + 1));
    first..last.max(first)
}

/// Blanks the parameter declarations of each old-style definition an error
/// (original byte range) overlaps: the grammar may not accept the
/// definition with them, and without them it still parses as a function
/// with untyped parameters. Each definition falls back at most once.
/// Returns the declarations blanked, and the errors outside the definitions
/// that fell back.
pub fn old_style_fallback(
    src: &str,
    old_style: &mut [OldStyle],
    errors: &[Range<usize>],
    set: &mut RewriteSet,
) -> (Vec<Skipped>, Vec<Range<usize>>) {
    // An empty error range still marks the token after it.
    let overlaps =
        |span: &Range<usize>, e: &Range<usize>| e.start < span.end && span.start < e.end.max(e.start + 1);
    let mut blanked = Vec::new();
    let mut fell = Vec::new();
    for def in old_style.iter_mut().filter(|d| !d.blanked) {
        if errors.iter().any(|e| overlaps(&def.span, e)) {
            def.blanked = true;
            fell.push(def.span.clone());
            // Repairs inside the declarations go with them.
            if set.add_over(Rewrite::blank(src, def.declarations.clone())) {
                blanked.push(Skipped {
                    range: def.declarations.clone(),
                    culprit: None,
                    reason: "old-style parameter declarations not parsed, parameters untyped".into(),
                    aside: true,
                });
            }
        }
    }
    let others = errors
        .iter()
        .filter(|e| !fell.iter().any(|span| overlaps(span, e)))
        .cloned()
        .collect();
    (blanked, others)
}

/// Error regions a kept branch must hold, at least, to be read as not C.
const MIN_UNREADABLE_ERRORS: usize = 8;

/// A kept branch with one error region or more for every this many lines,
/// after a round of repairs, is not C.
const LINES_PER_UNREADABLE_ERROR: usize = 4;

/// Skips whole the conditional groups whose kept branch is not C even after
/// a round of repairs (assembly or prose under an `#if`): errors
/// (original byte ranges) lie thick in it, at least
/// `MIN_UNREADABLE_ERRORS` and one for every `LINES_PER_UNREADABLE_ERROR`
/// lines. One large error region means a misread construct in real code,
/// not an unreadable branch, and a short branch is skipped by [`recover`]
/// anyway. Every further round would re-parse such a branch, whose error
/// recovery is tree-sitter's slowest work, for nothing. Returns what was
/// skipped and the errors outside the skipped groups.
pub fn skip_unreadable_groups(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    groups: &[CondGroup],
    group_state: &mut [GroupRepair],
    errors: Vec<Range<usize>>,
    set: &mut RewriteSet,
) -> (Vec<Skipped>, Vec<Range<usize>>) {
    let mut blanked = Vec::new();
    let mut dropped: Vec<Range<usize>> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let kept = group.kept_tokens();
        if group_state[g] != GroupRepair::KeptBranch || kept.is_empty() {
            continue;
        }
        let bytes = info.tokens[kept.start].range.start..info.tokens[kept.end - 1].range.end;
        let inside = errors
            .iter()
            .filter(|e| bytes.start <= e.start && e.end <= bytes.end)
            .count();
        let lines = 1 + src[bytes.clone()].matches('\n').count();
        if inside < MIN_UNREADABLE_ERRORS || inside * LINES_PER_UNREADABLE_ERROR < lines {
            continue;
        }
        let range = group.byte_range(&info.tokens);
        if set.add_over(Rewrite::blank(src, range.clone())) {
            group_state[g] = GroupRepair::Skipped;
            blanked.push(Skipped {
                culprit: culprit(src, info, macros, kept),
                reason: format!(
                    "conditional group not understood ({inside} syntax errors in {lines} lines), skipped"
                ),
                aside: true,
                range: range.clone(),
            });
            dropped.push(range);
        }
    }
    let others = errors
        .into_iter()
        .filter(|e| !dropped.iter().any(|d| d.start <= e.start && e.end <= d.end))
        .collect();
    (blanked, others)
}

/// A conditional group whose kept branch is longer than this is never
/// skipped whole: an error inside it is the code's, not the group's.
const MAX_SKIPPED_BRANCH: usize = 64;

/// Applies heuristic repairs inside `win` (the widened window of the error
/// at token range `err`) and returns what was skipped.
pub fn recover(
    src: &str,
    info: &TokenInfo,
    macros: &MacroTable,
    groups: &[CondGroup],
    group_state: &mut [GroupRepair],
    (err, win): (Range<usize>, Range<usize>),
    set: &mut RewriteSet,
) -> Vec<Skipped> {
    let mut blanked = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let tr = group.tokens();
        if !(tr.start < win.end && win.start < tr.end) {
            continue;
        }
        let kept = group.kept_tokens();
        match group_state[g] {
            GroupRepair::None => {
                group_state[g] = GroupRepair::KeptBranch;
                for r in group.blanks(&info.tokens) {
                    set.add(Rewrite::blank(src, r));
                }
            }
            GroupRepair::KeptBranch
                if kept.start <= err.start && err.end <= kept.end && kept.len() <= MAX_SKIPPED_BRANCH =>
            {
                let range = group.byte_range(&info.tokens);
                if set.add_over(Rewrite::blank(src, range.clone())) {
                    group_state[g] = GroupRepair::Skipped;
                    blanked.push(Skipped {
                        range,
                        culprit: culprit(src, info, macros, kept),
                        reason: "conditional group not understood, skipped".into(),
                        aside: true,
                    });
                }
            }
            _ => {}
        }
    }
    let toks = &info.tokens;
    let mut i = win.start;
    while i < win.end {
        let t = &toks[i];
        if info.dead[i] || t.kind != TokenKind::Ident {
            i += 1;
            continue;
        }
        let name = t.text(src);
        if matches!(name, "asm" | "__asm__" | "__asm") {
            asm_operands(src, info, i, set);
        }
        let close = info.call_close(src, i);
        if let Some(c) = close {
            type_arguments(src, info, i, c, set);
        }
        if !suspect(macros, name) {
            i += 1;
            continue;
        }
        let depth = info.depth[i];
        let next_after = |j: usize| info.next_live(j).map(|n| toks[n].text(src));
        let prev = info.prev_live(i).map(|p| &toks[p]);
        let after_declarator = prev.is_some_and(|p| {
            p.text(src) == ")" || (p.kind == TokenKind::Ident && !keyword_statement(p.text(src)))
        });
        match close {
            Some(c)
                if depth > 0
                    && next_after(c) == Some("{")
                    && (iterator_name(name)
                        || prev.is_some_and(|p| matches!(p.text(src), ";" | "{" | "}"))) =>
            {
                iterator_as_loop(info, i, set);
                i = c;
            }
            Some(c)
                if depth > 0
                    && info.at_statement_start(src, i, macros)
                    && !matches!(next_after(c), Some(";" | "," | ")" | "." | "->" | "=" | "[")) =>
            {
                if next_after(c).is_none_or(|n| !is_operator(n)) {
                    terminate_statement(src, info, i, c, set);
                }
                i = c;
            }
            Some(c) if depth == 0 && info.at_statement_start(src, i, macros) => {
                let mut end = toks[c].range.end;
                if let Some(n) = info.next_live(c).filter(|&n| toks[n].is_punct(src, ";")) {
                    end = toks[n].range.end;
                }
                let range = t.range.start..end;
                if set.add(Rewrite::blank(src, range.clone())) {
                    blanked.push(Skipped {
                        range,
                        culprit: Some(name.to_string()),
                        reason: format!("unknown declarer macro `{name}` skipped"),
                        aside: false,
                    });
                }
                i = c;
            }
            Some(c) if after_declarator && matches!(next_after(c), Some("{" | ";" | "," | "=")) => {
                set.add(Rewrite::blank(src, t.range.start..toks[c].range.end));
                i = c;
            }
            None if after_declarator
                && info.next_live(i).is_some_and(|n| {
                    toks[n].kind == TokenKind::Ident
                        || matches!(toks[n].text(src), "{" | ";" | "," | "*" | "=")
                }) =>
            {
                set.add(Rewrite::blank(src, t.range.clone()));
            }
            None if prev
                .is_none_or(|p| matches!(p.text(src), ";" | "{" | "}") || p.kind == TokenKind::Directive)
                && info.next_live(i).is_some_and(|n| {
                    toks[n].kind == TokenKind::Ident && specifier_word(toks[n].text(src))
                }) =>
            {
                set.add(Rewrite::blank(src, t.range.clone()));
            }
            _ => {}
        }
        i += 1;
    }
    blanked
}

fn keyword_statement(word: &str) -> bool {
    matches!(word, "return" | "case" | "goto" | "sizeof" | "else" | "do")
}

fn is_operator(text: &str) -> bool {
    matches!(
        text,
        "+" | "-"
            | "*"
            | "/"
            | "%"
            | "&"
            | "|"
            | "^"
            | "<"
            | ">"
            | "?"
            | ":"
            | "!"
            | "&&"
            | "||"
            | "++"
            | "--"
    )
}

/// Blanks the operand lists of a GNU asm statement (`: [r2] "+r" (r2)`),
/// which tree-sitter-c rejects in some forms, keeping the template.
fn asm_operands(src: &str, info: &TokenInfo, asm: usize, set: &mut RewriteSet) {
    // `register int r0 __asm__ ("r0") = x;`: a register label, blanked whole.
    let after_declarator = info.prev_live(asm).is_some_and(|p| {
        let t = &info.tokens[p];
        t.kind == TokenKind::Ident && !keyword(t.text(src)) || t.is_punct(src, ")")
    });
    if let Some(c) = info.call_close(src, asm).filter(|_| after_declarator) {
        set.add(Rewrite::blank(
            src,
            info.tokens[asm].range.start..info.tokens[c].range.end,
        ));
        return;
    }
    let mut j = asm;
    while let Some(n) = info.next_live(j) {
        if info.tokens[n].kind != TokenKind::Ident {
            j = n;
            break;
        }
        j = n;
    }
    let Some(close) = info.closer[j].filter(|_| info.tokens[j].is_punct(src, "(")) else {
        return;
    };
    let mut k = j + 1;
    while k < close {
        if info.tokens[k].is_punct(src, ":") && !info.dead[k] {
            set.add(Rewrite::blank(
                src,
                info.tokens[k].range.start..info.tokens[close].range.start,
            ));
            return;
        }
        k = info.closer[k].map_or(k + 1, |c| c + 1);
    }
}

/// Replaces type arguments of a call (`va_arg(ap, char *)`) with `0` padded
/// to the same length, so the call parses as an expression.
fn type_arguments(src: &str, info: &TokenInfo, name: usize, close: usize, set: &mut RewriteSet) {
    if info.depth[name] == 0 || matches!(info.tokens[name].text(src), "sizeof" | "_Alignof" | "alignof") {
        return;
    }
    let open = name + 1;
    let args = split_args(src, info, open, close);
    let base = info.tokens[open].range.end;
    let mut from = base;
    for arg in args {
        let Some(off) = src.get(from..).and_then(|s| s.find(arg)) else {
            continue;
        };
        let start = from + off;
        from = start + arg.len();
        let first = arg
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if !arg.is_empty() && type_word(first) {
            set.add(Rewrite {
                range: start..start + arg.len(),
                text: format!("0{}", " ".repeat(arg.len() - 1)),
            });
        }
    }
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
