//! The pending edits of one file, checked as they arrive and applied in one
//! sorted splice pass.
//!
//! Ordering rules at a single offset (all deterministic):
//! 1. the line break that opens lines inserted between two items sharing a
//!    line;
//! 2. insertions that belong *after* an anchor ending here, innermost anchor
//!    first; for one anchor the code comes before the closing brace of a
//!    wrapped body;
//! 3. insertions that belong *before* an anchor starting here, outermost
//!    anchor first; for one anchor the opening brace comes before the code;
//! 4. the indentation that closes those inserted lines;
//! 5. a replacement starting here.
//!
//! Within each group, insertions keep the order in which they were issued.

use std::cmp::Reverse;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::positions::Positions;
use super::{Edit, Location};

/// Which side of its anchor an insertion belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

/// What an insertion is: requested code, one brace of a brace-less body
/// that had to be wrapped, or the line break and indentation around lines
/// inserted between two items sharing a line (`a(); b();`). Braces of one
/// body are shared by every edit around it, and so are the break and the
/// indentation by every edit between the two items (after the first, before
/// the second): identical ones are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Code,
    Brace,
    /// The newline that ends the first item's line.
    LineBreak,
    /// What the second item's indentation needs before the blanks that
    /// already precede it.
    Indent,
}

/// Text inserted at `offset`, on `side` of the `anchor` it was placed for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insertion {
    pub offset: usize,
    pub text: String,
    /// The statement (or file-scope item) the insertion is attached to;
    /// decides the order of insertions sharing an offset.
    pub anchor: Range<usize>,
    pub side: Side,
    pub layer: Layer,
}

/// One requested change, before it joins an [`EditSet`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Insert(Insertion),
    Replace { range: Range<usize>, text: String },
}

impl From<Edit> for Op {
    /// A raw edit from a transformation: an empty range is an insertion
    /// (ordered among other insertions at that offset by issue order), a
    /// non-empty one a replacement.
    fn from(edit: Edit) -> Op {
        if edit.range.is_empty() {
            Op::Insert(Insertion {
                offset: edit.range.start,
                anchor: edit.range,
                text: edit.text,
                side: Side::Before,
                layer: Layer::Code,
            })
        } else {
            Op::Replace {
                range: edit.range,
                text: edit.text,
            }
        }
    }
}

/// Why an edit could not join an [`EditSet`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("overlapping replacements: {first} and {second}")]
    Overlap { first: Location, second: Location },
    #[error("insertion requested at {insert} falls inside the replacement requested at {replacement}")]
    InsideReplacement { insert: Location, replacement: Location },
    #[error("{at}: edit range {start}..{end} is outside the file or splits a character")]
    BadRange { at: Location, start: usize, end: usize },
}

#[derive(Debug, Clone)]
struct Pending {
    op: Op,
    /// Issue order.
    seq: usize,
    /// Offset of the join point that asked for the edit (for diagnostics).
    origin: usize,
}

/// The pending edits of one file's current text.
#[derive(Debug, Clone)]
pub struct EditSet {
    path: PathBuf,
    text: Arc<str>,
    pending: Vec<Pending>,
    positions: Positions,
}

impl EditSet {
    /// An empty set of edits against `text`, the current content of `path`.
    pub fn new(path: impl Into<PathBuf>, text: Arc<str>) -> EditSet {
        EditSet {
            path: path.into(),
            text,
            pending: Vec::new(),
            positions: Positions::default(),
        }
    }

    /// The file the edits apply to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The text the edits' offsets refer to.
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Adds `ops` as one unit: either all of them join the set or, on error,
    /// none does. `origin` is the offset of the join point that asked for
    /// them; errors name it as `file:line:col`.
    pub fn push(&mut self, ops: impl IntoIterator<Item = Op>, origin: usize) -> Result<(), EditError> {
        let before = self.pending.len();
        for op in ops {
            if let Err(err) = self.push_one(op, origin) {
                self.forget_from(before);
                return Err(err);
            }
        }
        Ok(())
    }

    fn push_one(&mut self, op: Op, origin: usize) -> Result<(), EditError> {
        let range = match &op {
            Op::Insert(ins) => ins.offset..ins.offset,
            Op::Replace { range, .. } => range.clone(),
        };
        self.check_range(&range, origin)?;
        if let Op::Insert(ins) = &op
            && ins.layer != Layer::Code
            && self.has_insertion(ins)
        {
            return Ok(());
        }
        self.check_compatible(&op, origin)?;
        let index = self.pending.len();
        match &op {
            Op::Insert(ins) => self.positions.add_insertion(ins.offset, index),
            Op::Replace { range, .. } => self.positions.add_replacement(range, index),
        }
        self.pending.push(Pending {
            op,
            seq: index,
            origin,
        });
        Ok(())
    }

    /// Drops the pending edits from index `from` on.
    fn forget_from(&mut self, from: usize) {
        for (index, p) in self.pending.iter().enumerate().skip(from) {
            match &p.op {
                Op::Insert(ins) => self.positions.remove_insertion(ins.offset, index),
                Op::Replace { range, .. } => self.positions.remove_replacement(range),
            }
        }
        self.pending.truncate(from);
    }

    /// Whether an insertion merging with `ins` is pending: the same brace
    /// of the same body, or the same break or indentation at the same
    /// place, whichever item asked for it.
    fn has_insertion(&self, ins: &Insertion) -> bool {
        let same = |other: &Insertion| match ins.layer {
            Layer::LineBreak | Layer::Indent => {
                (other.offset, &other.text, other.layer) == (ins.offset, &ins.text, ins.layer)
            }
            _ => other == ins,
        };
        self.positions
            .insertions_at(ins.offset)
            .iter()
            .any(|&i| matches!(&self.pending[i].op, Op::Insert(other) if same(other)))
    }

    fn check_range(&self, range: &Range<usize>, origin: usize) -> Result<(), EditError> {
        let ok = range.start <= range.end
            && range.end <= self.text.len()
            && self.text.is_char_boundary(range.start)
            && self.text.is_char_boundary(range.end);
        if ok {
            Ok(())
        } else {
            Err(EditError::BadRange {
                at: self.location(origin),
                start: range.start,
                end: range.end,
            })
        }
    }

    /// Refuses a replacement overlapping a pending one, and an insertion
    /// strictly inside a replacement (either pending).
    fn check_compatible(&self, op: &Op, origin: usize) -> Result<(), EditError> {
        let origin_of = |index: usize| self.pending[index].origin;
        match op {
            Op::Replace { range, .. } => {
                let overlap = self.positions.overlapping(range);
                let inside = self.positions.inside(range);
                // The earlier of the two conflicts is reported.
                match (overlap, inside) {
                    (Some(r), i) if i.is_none_or(|i| r < i) => Err(EditError::Overlap {
                        first: self.location(origin_of(r)),
                        second: self.location(origin),
                    }),
                    (_, Some(i)) => Err(EditError::InsideReplacement {
                        insert: self.location(origin_of(i)),
                        replacement: self.location(origin),
                    }),
                    _ => Ok(()),
                }
            }
            Op::Insert(ins) => match self.positions.holding(ins.offset) {
                Some(r) => Err(EditError::InsideReplacement {
                    insert: self.location(origin),
                    replacement: self.location(origin_of(r)),
                }),
                None => Ok(()),
            },
        }
    }

    fn location(&self, offset: usize) -> Location {
        Location::of(&self.path, &self.text, offset)
    }

    /// The pending edits as sorted, non-overlapping splices of the text:
    /// edits that meet at one offset (several insertions, an insertion
    /// beside a replacement) are merged into one splice, in the order the
    /// module comment gives.
    /// The set is consumed: each text moves into its splice rather than
    /// being copied (a large file's pending texts are megabytes).
    pub fn into_splices(self) -> Vec<Edit> {
        let mut order = self.pending;
        order.sort_by_key(sort_key);
        let mut out: Vec<Edit> = Vec::with_capacity(order.len());
        for p in order {
            // push_one guarantees no insertion falls inside a replacement
            // and replacements do not overlap, so offsets never go backwards.
            let (range, text) = match p.op {
                Op::Insert(ins) => (ins.offset..ins.offset, ins.text),
                Op::Replace { range, text } => (range, text),
            };
            match out.last_mut() {
                Some(last) if last.range.end == range.start => {
                    last.range.end = range.end;
                    last.text.push_str(&text);
                }
                _ => out.push(Edit { range, text }),
            }
        }
        out
    }

    /// The text with every pending edit applied.
    pub fn apply(&self) -> String {
        super::splice(&self.text, &self.clone().into_splices())
    }
}

/// (offset, group, nesting, layer, issue order); see the module comment.
fn sort_key(p: &Pending) -> (usize, u8, Reverse<usize>, u8, usize) {
    match &p.op {
        Op::Insert(ins) => match (ins.layer, ins.side) {
            (Layer::LineBreak, _) => (ins.offset, 0, Reverse(0), 0, p.seq),
            (Layer::Indent, _) => (ins.offset, 3, Reverse(0), 0, p.seq),
            (_, Side::After) => (
                ins.offset,
                1,
                Reverse(ins.anchor.start),
                (ins.layer == Layer::Brace) as u8,
                p.seq,
            ),
            (_, Side::Before) => (
                ins.offset,
                2,
                Reverse(ins.anchor.end),
                (ins.layer == Layer::Code) as u8,
                p.seq,
            ),
        },
        Op::Replace { range, .. } => (range.start, 4, Reverse(0), 0, p.seq),
    }
}
