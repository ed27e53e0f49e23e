//! Moving one file's symbols through edits that keep its declarations.
//!
//! An edit that only rewrites an expression (`x += e` → `x = x + (e)`)
//! leaves the file's scopes, declarations, tags and struct definitions as
//! they were, only at other offsets and lines. [`ViewShift`] holds the
//! view-level edits of such a commit; [`shift_symbols`] moves every offset
//! and line the walk recorded through them instead of walking the file
//! again. It first checks that nothing recorded lies inside a replaced
//! range and that no text a declaration was read from changed (a block or
//! a declaration inside a rewritten expression, a type written with one):
//! then the symbols would not only move, and the file must be walked again.

use std::ops::Range;

use super::builder::{FileSymbols, StructDef};
use super::declaration::Declaration;
use weft_text::Edit;

/// The view edits (sorted, non-overlapping ranges of the old view) that made
/// a file's new view, as far as positions are concerned.
#[derive(Debug, Clone)]
pub struct ViewShift {
    moves: Vec<Move>,
    /// Some edit's old or new text holds a `#`: a directive may have
    /// changed, so what macros mean must be learned again.
    touches_directive: bool,
}

/// One edit: the old range, and the bytes and lines gained once it and every
/// edit before it are applied.
#[derive(Debug, Clone)]
struct Move {
    range: Range<usize>,
    bytes_after: isize,
    lines_after: isize,
}

impl ViewShift {
    /// The shift of `edits`, view edits of `old_view`.
    pub fn new(old_view: &str, edits: &[Edit]) -> ViewShift {
        let (mut bytes, mut lines) = (0isize, 0isize);
        let mut touches_directive = false;
        let newlines = |s: &str| s.bytes().filter(|&b| b == b'\n').count() as isize;
        let moves = edits
            .iter()
            .map(|e| {
                let old = old_view.get(e.range.clone()).unwrap_or_default();
                touches_directive |= old.contains('#') || e.text.contains('#');
                bytes += e.text.len() as isize - e.range.len() as isize;
                lines += newlines(&e.text) - newlines(old);
                Move {
                    range: e.range.clone(),
                    bytes_after: bytes,
                    lines_after: lines,
                }
            })
            .collect();
        ViewShift {
            moves,
            touches_directive,
        }
    }

    /// True when some edit may have changed a preprocessor directive.
    pub fn touches_directive(&self) -> bool {
        self.touches_directive
    }

    /// How many edits end at or before `offset` (`strictly`: before it).
    fn passed(&self, offset: usize, strictly: bool) -> usize {
        self.moves.partition_point(|m| {
            if strictly {
                m.range.end < offset
            } else {
                m.range.end <= offset
            }
        })
    }

    fn moved_by(&self, passed: usize) -> (isize, isize) {
        passed
            .checked_sub(1)
            .map_or((0, 0), |i| (self.moves[i].bytes_after, self.moves[i].lines_after))
    }

    /// Where the start of something at `offset` goes, or `None` when it lies
    /// in a replaced range (at its start included). Text inserted right at
    /// `offset` comes before the thing.
    fn start(&self, offset: usize) -> Option<usize> {
        let passed = self.passed(offset, false);
        if self.moves.get(passed).is_some_and(|m| m.range.start <= offset) {
            return None;
        }
        Some(offset.saturating_add_signed(self.moved_by(passed).0))
    }

    /// Where the (exclusive) end of something at `offset` goes, or `None`
    /// when it lies in a replaced range (at its end included). Text inserted
    /// right at `offset` comes after the thing; text inserted or replaced
    /// just before it (before a closing brace) stays inside.
    fn end(&self, offset: usize) -> Option<usize> {
        let passed = self.passed(offset, true);
        if self.moves.get(passed).is_some_and(|m| m.range.start < offset) {
            return None;
        }
        Some(offset.saturating_add_signed(self.moved_by(passed).0))
    }

    /// The line, once moved, of something at `offset` that was on `line`.
    fn line(&self, line: usize, offset: usize) -> usize {
        line.saturating_add_signed(self.moved_by(self.passed(offset, false)).1)
    }

    /// True when some edit overlaps `range` or inserts text strictly
    /// inside it.
    fn touches(&self, range: &Range<usize>) -> bool {
        // The first edit ending after the range starts (an insertion there
        // lies after the start).
        let first = self.passed(range.start, false);
        self.moves.get(first).is_some_and(|m| m.range.start < range.end)
    }
}

/// Moves `symbols` and `structs` (the struct definitions of the same file)
/// through `shift`, or returns false, changing nothing, when the edits do
/// more than move them.
pub(super) fn shift_symbols(symbols: &mut FileSymbols, structs: &mut [StructDef], shift: &ViewShift) -> bool {
    let mut check = Check { shift, fits: true };
    visit(symbols, structs, &mut check);
    if check.fits {
        visit(symbols, structs, &mut Apply(shift));
    }
    check.fits
}

/// What [`visit`] does with each recorded position.
trait Positions {
    fn start(&mut self, offset: &mut usize);
    fn end(&mut self, offset: &mut usize);
    fn line(&mut self, line: &mut usize, offset: usize);
    /// A range whose text the symbols were read from.
    fn read(&mut self, range: &mut Range<usize>);
}

/// Finds whether every position can be moved.
struct Check<'s> {
    shift: &'s ViewShift,
    fits: bool,
}

impl Positions for Check<'_> {
    fn start(&mut self, offset: &mut usize) {
        self.fits &= self.shift.start(*offset).is_some();
    }
    fn end(&mut self, offset: &mut usize) {
        self.fits &= self.shift.end(*offset).is_some();
    }
    fn line(&mut self, _: &mut usize, _: usize) {}
    fn read(&mut self, range: &mut Range<usize>) {
        self.fits &= !self.shift.touches(range);
    }
}

/// Moves every position (after [`Check`] found they all can be).
struct Apply<'s>(&'s ViewShift);

impl Positions for Apply<'_> {
    fn start(&mut self, offset: &mut usize) {
        *offset = self.0.start(*offset).unwrap_or(*offset);
    }
    fn end(&mut self, offset: &mut usize) {
        *offset = self.0.end(*offset).unwrap_or(*offset);
    }
    fn line(&mut self, line: &mut usize, offset: usize) {
        *line = self.0.line(*line, offset);
    }
    fn read(&mut self, range: &mut Range<usize>) {
        self.start(&mut range.start);
        self.end(&mut range.end);
    }
}

/// Gives `positions` every offset and line recorded in `symbols` and
/// `structs`, each line before the offset it was computed from.
fn visit(symbols: &mut FileSymbols, structs: &mut [StructDef], positions: &mut impl Positions) {
    for scope in &mut symbols.tree.scopes {
        positions.start(&mut scope.range.start);
        positions.end(&mut scope.range.end);
        for decl in scope.decls_mut() {
            declaration(decl, positions);
        }
        for tag in &mut scope.tags {
            positions.start(&mut tag.visible_from);
        }
    }
    for field in structs.iter_mut().flat_map(|s| &mut s.fields) {
        declaration(field, positions);
    }
    for unparsed in &mut symbols.unparsed {
        positions.line(&mut unparsed.line, unparsed.offset);
        positions.start(&mut unparsed.offset);
    }
    for range in &mut symbols.read {
        positions.read(range);
    }
}

fn declaration(decl: &mut Declaration, positions: &mut impl Positions) {
    positions.line(&mut decl.line, decl.range.start);
    positions.start(&mut decl.range.start);
    positions.end(&mut decl.range.end);
    positions.end(&mut decl.visible_from);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(range: Range<usize>, text: &str) -> Edit {
        Edit {
            range,
            text: text.to_string(),
        }
    }

    #[test]
    fn positions_move_by_the_edits_before_them_and_refuse_replaced_text() {
        // "a += 1;\nb;\n" → "a = a + (1);\nb;\n"
        let view = "a += 1;\nb;\n";
        let shift = ViewShift::new(view, &[edit(0..6, "a = a + (1)")]);
        assert_eq!(shift.start(8), Some(13));
        assert_eq!(shift.start(6), Some(11));
        assert_eq!(shift.start(0), None);
        assert_eq!(shift.start(3), None);
        assert_eq!(shift.end(6), None);
        assert_eq!(shift.end(0), Some(0));
        assert_eq!(shift.end(7), Some(12));
        assert_eq!(shift.line(2, 8), 2);
        assert!(!shift.touches_directive());
    }

    #[test]
    fn insertions_come_after_ends_and_before_starts_at_their_offset() {
        let view = "{ x; }";
        let shift = ViewShift::new(view, &[edit(5..5, "y;\n"), edit(6..6, " z;")]);
        // A scope `{ … }` (0..6) takes in the text inserted before its `}`
        // but not what follows it.
        assert_eq!(shift.start(0), Some(0));
        assert_eq!(shift.end(6), Some(9));
        assert_eq!(shift.start(5), Some(8));
        assert_eq!(shift.line(1, 5), 2);
        assert!(shift.touches(&(4..6)));
        assert!(!shift.touches(&(0..5)));
        assert!(!shift.touches(&(6..6)));
    }

    #[test]
    fn lines_follow_newlines_added_or_removed() {
        let view = "f(a,\n  b);\nint x;\n";
        let shift = ViewShift::new(view, &[edit(0..9, "g()")]);
        assert_eq!(shift.line(3, 15), 2);
        assert_eq!(shift.start(15), Some(9));
    }
}
