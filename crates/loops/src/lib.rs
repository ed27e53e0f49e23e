//! Static loop analysis for non-termination: which loops are in the
//! integer fragment, their paths as SMT terms under ideal or bit-vector
//! integers, and sufficient recurrence conditions (SRCs) found and checked
//! with an SMT solver. docs/nonterm.md, "Static recurrence conditions".
//!
//! The API, all at the crate root:
//! - the loops of a C text: [`loops`] and [`loops_in`] give each [`Loop`]
//!   (`while`, `for`, `do`, and those a backward `goto` makes: [`GOTO`])
//!   with its [`Fragment`] (or why it is outside), [`fragment`] for one;
//! - SRCs of a loop under a [`Semantics`]: [`find`], [`infer`] and
//!   [`verify`] give an [`Outcome`] of [`Src`]s and a [`Verdict`] within
//!   [`LOOP_BUDGET`]; [`model`] gives values of a loop's [`Entry`] (the
//!   inputs and constants before a loop of `main`, [`entry`]) that satisfy
//!   an SRC; [`only_overflow_ends`] and the method marks
//!   [`STUCK`], [`EOF_ASSUMPTION`] and [`ARRAYS_ASSUMPTION`] classify them; [`weave_checks`]
//!   writes them into the C text as run-time checks;
//! - a whole program: [`load`] and [`survey`] analyse every loop in
//!   parallel ([`Survey`], one [`Found`] per loop); [`SolverAnalysis`] is
//!   the weaver's loop-analysis seam (`weft_weave::program::LoopAnalysis`)
//!   backed by the solver.
//!
//! Every module is private: the IR, the encoding, the candidate
//! generators and the solver calls are how the analysis is built.

mod analysis;
mod candidates;
mod constants;
mod division;
mod encode;
mod entry;
mod eof;
mod evaluation;
mod extract;
mod ir;
mod orbit;
mod poly;
mod src;
mod summary;
mod survey;

use std::path::Path;

pub use analysis::SolverAnalysis;
pub use encode::Semantics;
pub use entry::{Entry, entry};
pub use eof::ASSUMPTION as EOF_ASSUMPTION;
pub use extract::{ARRAYS_ASSUMPTION, Fragment, fragment};
pub use src::{LOOP_BUDGET, Outcome, STUCK, Src, Verdict, find, infer, model, only_overflow_ends, verify};
pub use survey::{Found, Survey, load, survey};

/// The kind of a loop made of a backward `goto` (`again: … goto again;`,
/// `weft_c::goto_loop`): its line is its label's, its condition none
/// (`1`), the conditions under which a `goto` to its head is taken those
/// of its paths that go round.
pub const GOTO: &str = "goto";

/// One loop of a file, as found by [`loops`].
#[derive(Clone, Debug)]
pub struct Loop {
    /// 1-based line of the loop keyword.
    pub line: usize,
    /// `while`, `for`, `do`, or [`GOTO`].
    pub kind: &'static str,
    /// Byte range of the loop in the text (a goto loop's: from its label
    /// to its last statement).
    pub range: std::ops::Range<usize>,
    /// Byte range of the body (a goto loop's: from the statement its
    /// label labels to its last statement).
    pub body: std::ops::Range<usize>,
    /// Whether the body is a block (`{ … }`); for a goto loop, whether
    /// its statements lie in one (outside a block, `if (c) L: goto L;`,
    /// the labeled statement is the whole loop).
    pub braced: bool,
    /// The loop's fragment, or why it is outside.
    pub fragment: Result<Fragment, String>,
}

/// Every loop of a C text, outermost first in source order (the plain
/// parse: byte ranges are offsets in `text`).
pub fn loops(path: &Path, text: &str) -> Vec<Loop> {
    let parsed = weft_c::ParsedFile::parse_plain(path.to_path_buf(), text.to_string());
    let sema = weft_c::sema::Semantics::build(std::slice::from_ref(&parsed), &[]);
    loops_in(&parsed, &sema, 0)
}

/// Every loop of file `index` of a program as its front end parsed it,
/// names resolved by the program's `sema`; byte ranges are offsets in the
/// file's view. A loop the front end did not understand as written is
/// outside the fragment (`not parsed`).
pub fn loops_in(parsed: &weft_c::ParsedFile, sema: &weft_c::sema::Semantics, index: usize) -> Vec<Loop> {
    let mut out = Vec::new();
    for tree in parsed.trees() {
        walk(tree.root_node(), parsed, (sema, index), &mut out);
    }
    out
}

fn walk(
    node: tree_sitter::Node<'_>,
    parsed: &weft_c::ParsedFile,
    sema: (&weft_c::sema::Semantics, usize),
    out: &mut Vec<Loop>,
) {
    let kind = match node.kind() {
        "while_statement" => Some("while"),
        "for_statement" => Some("for"),
        "do_statement" => Some("do"),
        _ => None,
    };
    if let Some(kind) = kind {
        let fragment = if parsed.is_understood(node) {
            extract::fragment_in(node, &parsed.view, Some(sema))
        } else {
            Err("not parsed".into())
        };
        let body = node.child_by_field_name("body");
        out.push(Loop {
            line: node.start_position().row + 1,
            kind,
            range: node.byte_range(),
            body: body
                .map(|b| b.byte_range())
                .unwrap_or(node.end_byte()..node.end_byte()),
            braced: body.is_some_and(|b| b.kind() == "compound_statement"),
            fragment,
        });
    }
    if node.kind() == "labeled_statement"
        && let Some(found) = weft_c::goto_loop::goto_loop(node, &parsed.view)
    {
        out.push(goto_loop(node, found, parsed, sema));
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        walk(child, parsed, sema, out);
    }
}

/// The loop a backward `goto` to `labeled`'s label makes ([`GOTO`]): its
/// range from the label to the last statement going back, its body from
/// the statement labeled; or why it has no fragment.
fn goto_loop(
    labeled: tree_sitter::Node<'_>,
    found: Result<weft_c::goto_loop::GotoLoop<'_>, String>,
    parsed: &weft_c::ParsedFile,
    sema: (&weft_c::sema::Semantics, usize),
) -> Loop {
    let range = found.as_ref().map_or(labeled.byte_range(), |l| l.range());
    let body = match found.as_ref().ok().and_then(|l| l.first()) {
        Some(first) => first.start_byte()..range.end,
        None => range.clone(),
    };
    let fragment = found.and_then(|l| {
        if l.region.iter().all(|s| parsed.is_understood(*s)) {
            extract::goto_fragment(&l, &parsed.view, Some(sema))
        } else {
            Err("not parsed".into())
        }
    });
    let braced = labeled
        .parent()
        .is_some_and(|b| matches!(b.kind(), "compound_statement" | "case_statement"));
    Loop {
        line: labeled.start_position().row + 1,
        kind: GOTO,
        range,
        body,
        braced,
        fragment,
    }
}

/// The text with `if (SRC) { report; abort }` at the top of each listed
/// loop's body (braces added around a body that has none; a goto loop's
/// right after its label): `checks` pairs
/// a loop with its SRC as C text. The report is one line on standard
/// error, `FILE:LINE: loop does not terminate: SRC (TEXT) holds`, written
/// with `write(2)` declared at block scope, so no header is needed. A
/// check that asks for the round (`eof::ROUND`) gets a counter of the
/// loop's rounds, declared in a block around the loop (so each entry of
/// the loop starts from 0) and counted before the check.
pub fn weave_checks(text: &str, file: &str, checks: &[(&Loop, String)]) -> String {
    let mut edits: Vec<(usize, String)> = Vec::new();
    for (l, src) in checks {
        let counted = names_round(src);
        let escape = |t: &str| t.replace('\\', "\\\\").replace('"', "\\\"");
        let escaped = format!(
            "{}:{}: loop does not terminate: SRC ({}) holds\\n",
            escape(file),
            l.line,
            escape(src)
        );
        let mut check = format!(
            " if ({src}) {{ extern long write(int, const void *, unsigned long); \
             static const char weft_src_m[] = \"{escaped}\"; \
             (void)write(2, weft_src_m, sizeof weft_src_m - 1); __builtin_abort(); }} "
        );
        if counted {
            check = format!(" {}++;{check}", eof::ROUND);
            edits.push((l.range.start, format!("{{ unsigned long {} = 0; ", eof::ROUND)));
            edits.push((l.range.end, " }".to_string()));
        }
        if l.kind == GOTO {
            // After the label: in a block, one more statement of it, whose
            // declarations keep their scope; else braces make the labeled
            // statement and the check one statement.
            edits.push((l.body.start, check));
            if !l.braced {
                edits.push((l.range.start, "{ ".to_string()));
                edits.push((l.range.end, " }".to_string()));
            }
        } else if l.braced {
            edits.push((l.body.start + 1, check));
        } else {
            edits.push((l.body.start, format!("{{{check}")));
            edits.push((l.body.end, " }".to_string()));
        }
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (at, s) in edits {
        out.insert_str(at, &s);
    }
    out
}

#[cfg(test)]
mod tests;

/// Whether C text names `eof::ROUND` (as a whole identifier).
pub fn names_round(text: &str) -> bool {
    text.match_indices(eof::ROUND).any(|(at, _)| {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !word(text[..at].chars().next_back()) && !word(text[at + eof::ROUND.len()..].chars().next())
    })
}

#[cfg(test)]
mod eof_tests;

#[cfg(test)]
mod poly_tests;

#[cfg(test)]
mod memory_tests;

#[cfg(test)]
mod goto_tests;
