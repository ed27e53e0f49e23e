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
use super::texts::{TextRef, Texts};
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
    #[error("{at}: cannot edit a file or insert a text over 4 GiB")]
    TooLarge { at: Location },
}

/// One pending edit, 36 bytes: offsets are 32-bit ([`EditSet`] refuses a
/// text over 4 GiB) and the text sits in the set's [`Texts`]. As an
/// [`Op`] with its own string it took 72 bytes and a heap allocation.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// The replaced range; empty, at the offset, for an insertion.
    start: u32,
    end: u32,
    /// An insertion's anchor (see [`Insertion::anchor`]).
    anchor_start: u32,
    anchor_end: u32,
    /// Offset of the join point that asked for the edit (for diagnostics).
    origin: u32,
    text: TextRef,
    /// `None` for a replacement.
    insertion: Option<(Side, Layer)>,
}

const _: () = assert!(std::mem::size_of::<Pending>() == 36);

/// The pending edits of one file's current text. An edit's issue order is
/// its index in `pending`.
#[derive(Debug, Clone)]
pub struct EditSet {
    path: PathBuf,
    text: Arc<str>,
    pending: Vec<Pending>,
    texts: Texts,
    positions: Positions,
}

impl EditSet {
    /// An empty set of edits against `text`, the current content of `path`.
    pub fn new(path: impl Into<PathBuf>, text: Arc<str>) -> EditSet {
        EditSet {
            path: path.into(),
            text,
            pending: Vec::new(),
            texts: Texts::default(),
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
        let too_large = |set: &EditSet| EditError::TooLarge {
            at: set.location(origin),
        };
        let (anchor, insertion) = match &op {
            Op::Insert(ins) => (ins.anchor.clone(), Some((ins.side, ins.layer))),
            Op::Replace { .. } => (0..0, None),
        };
        let small = [
            range.start,
            range.end,
            anchor.start,
            anchor.end,
            origin,
            self.pending.len(),
        ]
        .map(|n| u32::try_from(n).ok());
        let [
            Some(start),
            Some(end),
            Some(anchor_start),
            Some(anchor_end),
            Some(origin32),
            Some(index),
        ] = small
        else {
            return Err(too_large(self));
        };
        let text = match &op {
            Op::Insert(ins) => ins.text.as_str(),
            Op::Replace { text, .. } => text.as_str(),
        };
        if let Some((_, layer)) = insertion
            && layer != Layer::Code
            && self.has_insertion(start, text, (anchor_start, anchor_end), insertion)
        {
            return Ok(());
        }
        self.check_compatible(&op, start..end, origin)?;
        let Some(text) = self.texts.add(text) else {
            return Err(too_large(self));
        };
        match insertion {
            Some(_) => self.positions.add_insertion(start, index),
            None => self.positions.add_replacement(start..end, index),
        }
        self.pending.push(Pending {
            start,
            end,
            anchor_start,
            anchor_end,
            origin: origin32,
            text,
            insertion,
        });
        Ok(())
    }

    /// Drops the pending edits from index `from` on.
    fn forget_from(&mut self, from: usize) {
        for (index, p) in self.pending.iter().enumerate().skip(from) {
            // Indexes of pending edits fit 32 bits (`push_one`).
            let index = index as u32;
            match p.insertion {
                Some(_) => self.positions.remove_insertion(p.start, index),
                None => self.positions.remove_replacement(p.start..p.end),
            }
        }
        if let Some(first) = self.pending.get(from) {
            self.texts.truncate(first.text);
        }
        self.pending.truncate(from);
    }

    /// Whether an insertion merging with the one given is pending: the
    /// same brace of the same body, or the same break or indentation at
    /// the same place, whichever item asked for it.
    fn has_insertion(
        &self,
        offset: u32,
        text: &str,
        anchor: (u32, u32),
        kind: Option<(Side, Layer)>,
    ) -> bool {
        let Some((_, layer)) = kind else {
            return false;
        };
        let same = |other: &Pending| match layer {
            Layer::LineBreak | Layer::Indent => {
                other.insertion.map(|(_, l)| l) == Some(layer) && self.texts.get(other.text) == text
            }
            _ => {
                other.insertion == kind
                    && (other.anchor_start, other.anchor_end) == anchor
                    && self.texts.get(other.text) == text
            }
        };
        self.positions
            .insertions_at(offset)
            .any(|i| same(&self.pending[i as usize]))
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
    /// strictly inside a replacement (either pending). `range` is `op`'s.
    fn check_compatible(&self, op: &Op, range: Range<u32>, origin: usize) -> Result<(), EditError> {
        let origin_of = |index: u32| self.pending[index as usize].origin as usize;
        match op {
            Op::Replace { .. } => {
                let overlap = self.positions.overlapping(range.clone());
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
            Op::Insert(_) => match self.positions.holding(range.start) {
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
    /// The set is consumed, its index let go of before the splices are
    /// made (a large file's pending edits are megabytes).
    pub fn into_splices(mut self) -> Vec<Edit> {
        self.settle();
        let mut out: Vec<Edit> = Vec::new();
        for (range, text) in self.in_order() {
            match out.last_mut() {
                Some(last) if last.range.end == range.start => {
                    last.range.end = range.end;
                    last.text.push_str(text);
                }
                _ => out.push(Edit {
                    range,
                    text: text.to_string(),
                }),
            }
        }
        out
    }

    /// Lets go of what only checking new edits needs: no edit joins a set
    /// once its text is being made.
    pub fn settle(&mut self) {
        self.positions = Positions::default();
    }

    /// Each pending edit's range and text, in the order the module comment
    /// gives.
    fn in_order(&self) -> impl Iterator<Item = (Range<usize>, &str)> {
        // Issue order is the index: the keys are distinct, and an unstable
        // sort of 4-byte indexes needs no buffer of pending edits.
        let mut order: Vec<u32> = (0..self.pending.len() as u32).collect();
        order.sort_unstable_by_key(|&i| sort_key(&self.pending[i as usize], i));
        // push_one guarantees no insertion falls inside a replacement and
        // replacements do not overlap, so offsets never go backwards.
        order.into_iter().map(|i| {
            let p = &self.pending[i as usize];
            (p.start as usize..p.end as usize, self.texts.get(p.text))
        })
    }

    /// The text with every pending edit applied, spliced straight from the
    /// set (the text of [`super::splice`] with [`EditSet::into_splices`],
    /// without making the splices).
    pub fn apply(&self) -> String {
        let added: usize = self.pending.iter().map(|p| p.text.len()).sum();
        let mut out = String::with_capacity(self.text.len() + added);
        let mut cursor = 0;
        for (range, text) in self.in_order() {
            out.push_str(&self.text[cursor..range.start]);
            out.push_str(text);
            cursor = range.end;
        }
        out.push_str(&self.text[cursor..]);
        out
    }
}

/// (offset, group, nesting, layer, issue order) of pending edit `seq`;
/// see the module comment.
fn sort_key(p: &Pending, seq: u32) -> (u32, u8, Reverse<u32>, u8, u32) {
    match p.insertion {
        Some((_, Layer::LineBreak)) => (p.start, 0, Reverse(0), 0, seq),
        Some((_, Layer::Indent)) => (p.start, 3, Reverse(0), 0, seq),
        Some((Side::After, layer)) => (
            p.start,
            1,
            Reverse(p.anchor_start),
            (layer == Layer::Brace) as u8,
            seq,
        ),
        Some((Side::Before, layer)) => (
            p.start,
            2,
            Reverse(p.anchor_end),
            (layer == Layer::Code) as u8,
            seq,
        ),
        None => (p.start, 4, Reverse(0), 0, seq),
    }
}
