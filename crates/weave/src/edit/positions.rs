//! Where the pending edits of a file sit, so that a new edit is checked
//! against its neighbours only: checking it against every pending edit
//! made weaving a file with many join points quadratic.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// Pending replacements and insertions by offset; indexes are into the
/// pending list. Offsets and indexes are 32-bit (`EditSet` refuses a text
/// over 4 GiB), and insertions are one ordered set of (offset, index)
/// pairs: a list per offset cost about 100 bytes per insertion.
#[derive(Debug, Clone, Default)]
pub(super) struct Positions {
    /// Replacements by (start, end). They never overlap, so ordered by
    /// start they are ordered by end too.
    replacements: BTreeMap<(u32, u32), u32>,
    /// Insertions by (offset, index).
    insertions: BTreeSet<(u32, u32)>,
}

impl Positions {
    /// Records the replacement of `range`, pending edit `index`.
    pub fn add_replacement(&mut self, range: Range<u32>, index: u32) {
        self.replacements.insert((range.start, range.end), index);
    }

    /// Records an insertion at `offset`, pending edit `index`.
    pub fn add_insertion(&mut self, offset: u32, index: u32) {
        self.insertions.insert((offset, index));
    }

    /// Forgets the replacement of `range`.
    pub fn remove_replacement(&mut self, range: Range<u32>) {
        self.replacements.remove(&(range.start, range.end));
    }

    /// Forgets pending edit `index`, an insertion at `offset`.
    pub fn remove_insertion(&mut self, offset: u32, index: u32) {
        self.insertions.remove(&(offset, index));
    }

    /// The insertions at `offset`, in issue order.
    pub fn insertions_at(&self, offset: u32) -> impl Iterator<Item = u32> + '_ {
        self.insertions
            .range((offset, 0)..=(offset, u32::MAX))
            .map(|&(_, index)| index)
    }

    /// The earliest pending replacement that overlaps `range`: one that
    /// starts before `range` ends and ends after it starts.
    pub fn overlapping(&self, range: Range<u32>) -> Option<u32> {
        self.replacements
            .range(..(range.end, 0))
            .rev()
            .take_while(|((_, end), _)| *end > range.start)
            .map(|(_, index)| *index)
            .min()
    }

    /// The replacement that holds `offset` strictly inside.
    pub fn holding(&self, offset: u32) -> Option<u32> {
        let (&(_, end), &index) = self.replacements.range(..(offset, 0)).next_back()?;
        (offset < end).then_some(index)
    }

    /// The earliest pending insertion strictly inside `range`.
    pub fn inside(&self, range: Range<u32>) -> Option<u32> {
        if range.end <= range.start.saturating_add(1) {
            return None;
        }
        self.insertions
            .range((range.start + 1, 0)..(range.end, 0))
            .map(|&(_, index)| index)
            .min()
    }
}
