//! Text edits: byte-range insertions and replacements on a file's text,
//! ordered, checked for overlap, and placed where they make legal C.
//!
//! [`placement`] turns an `insert` action on a tree node into [`Op`]s;
//! an [`EditSet`] collects a file's ops, rejects conflicting ones as they
//! arrive, and applies them in one sorted splice pass.

mod edit_set;
mod layout;
mod location;
pub mod placement;

use std::ops::Range;

pub use edit_set::{EditError, EditSet, Insertion, Layer, Op, Side};
pub use location::Location;

/// One change to a file's current text: replace `range` by `text`. An empty
/// range is an insertion at `range.start`. Offsets are bytes of the text the
/// edit was computed against (never of a repaired view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// `text` with `edits` (sorted, non-overlapping, on character boundaries,
/// as [`EditSet::splices`] gives them) applied, in one pass.
pub fn splice(text: &str, edits: &[Edit]) -> String {
    let added: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(text.len() + added);
    let mut cursor = 0;
    for edit in edits {
        out.push_str(&text[cursor..edit.range.start]);
        out.push_str(&edit.text);
        cursor = edit.range.end;
    }
    out.push_str(&text[cursor..]);
    out
}
