//! Re-parsing after edits without repairing the file again.
//!
//! Weaving edits plain code: statements inserted between statements, an
//! expression replaced. When every edit lies in text the view copied
//! verbatim and inserts only plain C (no directive, no macro the front end
//! knows), the repairs of the rest of the file still hold: the new view is
//! the old view with the same edits spliced in, and tree-sitter re-parses it
//! incrementally from exact edit positions. The shortcut is taken only when
//! the result is understood exactly as well as before (the same regions not
//! understood, shifted); otherwise the caller parses from scratch.

use std::ops::Range;
use std::sync::Arc;

use tree_sitter::{InputEdit, Tree};

use super::classify::MacroClass;
use super::frontend::{error_ranges, new_parser, parse_with, point};
use super::lexer::{TokenKind, tokenize};
use super::macros::MacroTable;
use super::tree_edit::advance;
use super::trees::Trees;
use super::{ParsedFile, Problem};
use weft_text::Edit;
use weft_text::LineIndex;

/// A file parsed again after edits ([`super::FrontEnd::reparse_edited`]).
pub struct Reparsed {
    pub file: ParsedFile,
    /// The edits as they apply to the old view, when they were spliced into
    /// it (the new view is the old one with them applied); `None` when the
    /// whole front end parsed the file again, so that the view may differ
    /// anywhere.
    pub view_edits: Option<Vec<Edit>>,
}

/// `old` after `edits` (sorted, non-overlapping ranges of `old.text`, whose
/// result is `text`), or `None` when the edits need the full front end.
pub(super) fn splice(
    macros: &MacroTable,
    old: &ParsedFile,
    edits: &[Edit],
    text: &Arc<str>,
) -> Option<Reparsed> {
    if !edits
        .iter()
        .all(|e| is_plain(macros, &e.text) && !glues(&old.text, e))
    {
        return None;
    }
    let (map, view_ranges) = old.map.spliced(edits)?;
    let view_edits: Vec<Edit> = view_ranges
        .into_iter()
        .zip(edits)
        .map(|(range, e)| Edit {
            range,
            text: e.text.clone(),
        })
        .collect();
    let view = weft_text::splice(&old.view, &view_edits);
    let shift = |r: &Range<usize>| shift(edits, r.start)..shift(edits, r.end);
    let trees = match old.chunks() {
        // A chunked file had no error: it is chunked again, or parsed anew.
        Some(_) => Trees::of_chunks(&view)?,
        None => {
            let old_tree = old.tree_at(0);
            let mut tree = old_tree.clone();
            edit_tree(&mut tree, &old.view, &view_edits);
            let tree = parse_with(&mut new_parser(), &view, Some(&tree));
            let expected: Vec<Range<usize>> = error_ranges(&old_tree, &old.map).iter().map(shift).collect();
            if error_ranges(&tree, &map) != expected {
                return None;
            }
            Trees::Whole(tree)
        }
    };
    let lines = std::cell::OnceCell::new();
    let moved = |p: &Problem| {
        let range = shift(&p.range);
        Problem {
            line: lines.get_or_init(|| LineIndex::new(text)).line(range.start),
            range,
            ..p.clone()
        }
    };
    let file = ParsedFile {
        path: old.path.clone(),
        text: Arc::clone(text),
        view,
        map,
        trees,
        problems: old.problems.iter().map(moved).collect(),
        skipped: old.skipped.iter().map(moved).collect(),
        unread: old.unread.iter().map(shift).collect(),
        alternatives: old.alternatives,
        depths: old.depths,
        braces: Default::default(),
        lines: Default::default(),
    };
    Some(Reparsed {
        file,
        view_edits: Some(view_edits),
    })
}

/// True when `code` needs no repair: no preprocessor directive, no macro
/// whose uses the front end rewrites (constants and expression macros are
/// read as they are), and no comment or literal left open (its tokens end
/// where a following token would start).
fn is_plain(macros: &MacroTable, code: &str) -> bool {
    let probe = format!("{code}\n;");
    let tokens = tokenize(&probe);
    let closed = tokens.last().is_some_and(|t| t.range().start == code.len() + 1);
    let literal_at = |i: Option<usize>| {
        i.and_then(|i| tokens.get(i)).is_some_and(|t| {
            t.kind == TokenKind::Literal || macros.class(t.text(&probe)) == Some(MacroClass::StringLiteral)
        })
    };
    closed
        && tokens.iter().enumerate().all(|(i, t)| match t.kind {
            TokenKind::Directive => false,
            TokenKind::Ident => match macros.class(t.text(&probe)) {
                None | Some(MacroClass::Other) => true,
                // A string macro parses as a name, unless it is glued to
                // another string (`"a" NAME`), which only its repair reads.
                Some(MacroClass::StringLiteral) => !literal_at(i.checked_sub(1)) && !literal_at(Some(i + 1)),
                _ => false,
            },
            _ => true,
        })
}

/// True when the edit's text would merge with its neighbours into other
/// tokens (`a` + `b` → `ab`, `/` + `*` → a comment), which the old repairs
/// did not see.
fn glues(text: &str, edit: &Edit) -> bool {
    let before = text[..edit.range.start].bytes().last();
    let after = text[edit.range.end..].bytes().next();
    let (first, last) = match (edit.text.bytes().next(), edit.text.bytes().last()) {
        (Some(first), Some(last)) => (Some(first), Some(last)),
        _ => (after, before),
    };
    let joins = |a: Option<u8>, b: Option<u8>| match (a, b) {
        (Some(a), Some(b)) => (is_word(a) && is_word(b)) || (a == b'/' && matches!(b, b'*' | b'/')),
        _ => false,
    };
    joins(before, first) || joins(last, after)
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Tells `tree` (a parse of `old`) about each of `edits` (ranges of
/// `old`), last first, so that every edit's positions are still those of
/// the old view.
fn edit_tree(tree: &mut Tree, old: &str, edits: &[Edit]) {
    let lines = LineIndex::new(old);
    for edit in edits.iter().rev() {
        let start_position = point(&lines, edit.range.start);
        tree.edit(&InputEdit {
            start_byte: edit.range.start,
            old_end_byte: edit.range.end,
            new_end_byte: edit.range.start + edit.text.len(),
            start_position,
            old_end_position: point(&lines, edit.range.end),
            new_end_position: advance(start_position, &edit.text),
        });
    }
}

/// Where `offset` of the original text ends up after `edits`.
fn shift(edits: &[Edit], offset: usize) -> usize {
    let moved: isize = edits
        .iter()
        .take_while(|e| e.range.end <= offset)
        .map(|e| e.text.len() as isize - e.range.len() as isize)
        .sum();
    offset.saturating_add_signed(moved)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::FrontEnd;

    const SRC: &str = "#define local static\n#define LIMIT 10\n\
        #define CHECK(x) do { if (!(x)) abort(); } while (0)\n\
        local int f(int a) {\n  a = a + 1;\n  return a;\n}\n";

    fn front() -> FrontEnd {
        FrontEnd::new(MacroTable::learn([(Path::new("t.c"), SRC)]))
    }

    fn insert_before(needle: &str, code: &str) -> Edit {
        let at = SRC.find(needle).expect("needle in source");
        Edit {
            range: at..at,
            text: code.to_string(),
        }
    }

    fn edited(edits: &[Edit]) -> Arc<str> {
        Arc::from(weft_text::splice(SRC, edits))
    }

    /// Whether `edits` to `old` (a parse of `SRC`) are left to the whole
    /// front end.
    fn refused(front: &FrontEnd, old: &ParsedFile, edits: &[Edit]) -> bool {
        splice(front.macros(), old, edits, &edited(edits)).is_none()
    }

    #[test]
    fn plain_statements_are_spliced_into_the_view_and_parse_like_a_fresh_parse() {
        let front = front();
        let old = front.parse(Path::new("t.c"), Arc::from(SRC));
        let edits = [
            insert_before("a = a + 1", "enter(\"f\");\n  "),
            insert_before("return a", "leave(a, LIMIT);\n  "),
        ];
        let text = edited(&edits);
        let spliced = splice(front.macros(), &old, &edits, &text).expect("plain edits are spliced");
        let view_edits = spliced.view_edits.expect("spliced edits are view edits");
        assert_eq!(weft_text::splice(&old.view, &view_edits), spliced.file.view);
        let spliced = spliced.file;
        let fresh = front.parse(Path::new("t.c"), Arc::clone(&text));
        assert_eq!(spliced.view, fresh.view);
        assert_eq!(spliced.map, fresh.map);
        assert_eq!(
            spliced.whole_tree().root_node().to_sexp(),
            fresh.whole_tree().root_node().to_sexp()
        );
        assert!(!spliced.whole_tree().root_node().has_error());
    }

    #[test]
    fn code_using_a_macro_the_front_end_rewrites_goes_through_the_whole_front_end() {
        let front = front();
        let old = front.parse(Path::new("t.c"), Arc::from(SRC));
        assert_eq!(front.macros().class("CHECK"), Some(MacroClass::Statement));
        let edits = [insert_before("return a", "CHECK(a)\n  ")];
        assert!(!is_plain(front.macros(), &edits[0].text));
        assert!(refused(&front, &old, &edits));
        let directive = [insert_before("return a", "#line 1\n  ")];
        assert!(refused(&front, &old, &directive));
        let open_comment = [insert_before("return a", "/* ")];
        assert!(refused(&front, &old, &open_comment));
    }

    #[test]
    fn edits_touching_repaired_text_or_gluing_tokens_are_not_spliced() {
        let front = front();
        let old = front.parse(Path::new("t.c"), Arc::from(SRC));
        // `local` is blanked in the view: inserting right before it borders
        // synthesized text.
        let at_blank = [insert_before("local int", "int g;\n")];
        assert!(refused(&front, &old, &at_blank));
        let glued = [insert_before(" + 1;", "b")];
        assert!(refused(&front, &old, &glued));
    }

    #[test]
    fn an_edit_that_breaks_the_parse_falls_back() {
        let front = front();
        let old = front.parse(Path::new("t.c"), Arc::from(SRC));
        let edits = [insert_before("return a", "int )(;\n  ")];
        assert!(refused(&front, &old, &edits));
        let reparsed = front.reparse_edited(&old, &edits, edited(&edits));
        assert!(reparsed.view_edits.is_none());
        let reparsed = reparsed.file;
        let fresh = front.parse(Path::new("t.c"), edited(&edits));
        assert_eq!(
            reparsed.whole_tree().root_node().to_sexp(),
            fresh.whole_tree().root_node().to_sexp()
        );
        assert_eq!(reparsed.problems, fresh.problems);
    }
}
