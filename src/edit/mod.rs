//! Text edits: byte-range insertions and replacements on a file's text,
//! ordered, checked for overlap, and placed where they make legal C.

use std::ops::Range;

/// One change to a file's current text: replace `range` by `text`. An empty
/// range is an insertion at `range.start`. Offsets are bytes of the text the
/// edit was computed against (never of a repaired view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}
