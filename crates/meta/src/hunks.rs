//! What a revision changes in one file, as line hunks between the
//! original text and the revision's.

use std::ops::Range;

use similar::{DiffOp, TextDiff};

/// One changed region: lines `old` of the original (0-based, end
/// exclusive; empty for a pure insertion before line `old.start`) become
/// lines `new` of the revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// The hunks turning `old` into `new`, in order; equal lines separate them.
pub fn hunks(old: &str, new: &str) -> Vec<Hunk> {
    let diff = TextDiff::from_lines(old, new);
    let mut out: Vec<Hunk> = Vec::new();
    for op in diff.ops() {
        let (old_range, new_range) = match *op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index..old_index + old_len, new_index..new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index..old_index, new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (old_index..old_index + old_len, new_index..new_index + new_len),
        };
        match out.last_mut() {
            Some(last) if last.old.end == old_range.start && last.new.end == new_range.start => {
                last.old.end = old_range.end;
                last.new.end = new_range.end;
            }
            _ => out.push(Hunk {
                old: old_range,
                new: new_range,
            }),
        }
    }
    out
}

/// The revision's line range for the original lines `old`, which must not
/// cut any of `hunks` (each hunk lies wholly inside `old` or wholly
/// outside it, an insertion at an end counting as inside).
pub fn map_range(hunks: &[Hunk], old: Range<usize>) -> Range<usize> {
    let shift = |h: &Hunk| h.new.len() as isize - h.old.len() as isize;
    let before: isize = hunks
        .iter()
        .filter(|h| {
            if h.old.is_empty() {
                h.old.start < old.start
            } else {
                h.old.end <= old.start
            }
        })
        .map(shift)
        .sum();
    let inside: isize = hunks
        .iter()
        .filter(|h| h.old.start >= old.start && h.old.end <= old.end)
        .map(shift)
        .sum();
    let start = (old.start as isize + before) as usize;
    let end = (old.end as isize + before + inside) as usize;
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_and_mapping() {
        let old = "a\nb\nc\nd\ne\n";
        let new = "a\nB\nB2\nc\nd\nx\ne\n";
        let h = hunks(old, new);
        assert_eq!(h, [Hunk { old: 1..2, new: 1..3 }, Hunk { old: 4..4, new: 5..6 },]);
        assert_eq!(map_range(&h, 1..2), 1..3);
        assert_eq!(map_range(&h, 2..3), 3..4);
        // An insertion at either end of a range counts as inside it (sites
        // are built so that no two of them share such an end).
        assert_eq!(map_range(&h, 3..4), 4..6);
        assert_eq!(map_range(&h, 4..5), 5..7);
        assert_eq!(map_range(&h, 0..5), 0..7);
    }
}
