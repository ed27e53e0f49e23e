//! Where the pending edits of a file sit, so that a new edit is checked
//! against its neighbours only: checking it against every pending edit
//! made weaving a file with many join points quadratic.

use std::collections::BTreeMap;
use std::ops::Range;

/// Pending replacements and insertions by offset; values are indexes into
/// the pending list.
#[derive(Debug, Clone, Default)]
pub(super) struct Positions {
    /// Replacements by (start, end). They never overlap, so ordered by
    /// start they are ordered by end too.
    replacements: BTreeMap<(usize, usize), usize>,
    /// Insertions by offset.
    insertions: BTreeMap<usize, Vec<usize>>,
}

impl Positions {
    /// Records the replacement of `range`, pending edit `index`.
    pub fn add_replacement(&mut self, range: &Range<usize>, index: usize) {
        self.replacements.insert((range.start, range.end), index);
    }

    /// Records an insertion at `offset`, pending edit `index`.
    pub fn add_insertion(&mut self, offset: usize, index: usize) {
        self.insertions.entry(offset).or_default().push(index);
    }

    /// Forgets the replacement of `range`.
    pub fn remove_replacement(&mut self, range: &Range<usize>) {
        self.replacements.remove(&(range.start, range.end));
    }

    /// Forgets pending edit `index`, an insertion at `offset`.
    pub fn remove_insertion(&mut self, offset: usize, index: usize) {
        if let Some(at) = self.insertions.get_mut(&offset) {
            at.retain(|&i| i != index);
            if at.is_empty() {
                self.insertions.remove(&offset);
            }
        }
    }

    /// The insertions at `offset`.
    pub fn insertions_at(&self, offset: usize) -> &[usize] {
        self.insertions.get(&offset).map_or(&[], Vec::as_slice)
    }

    /// The earliest pending replacement that overlaps `range`: one that
    /// starts before `range` ends and ends after it starts.
    pub fn overlapping(&self, range: &Range<usize>) -> Option<usize> {
        self.replacements
            .range(..(range.end, 0))
            .rev()
            .take_while(|((_, end), _)| *end > range.start)
            .map(|(_, index)| *index)
            .min()
    }

    /// The replacement that holds `offset` strictly inside.
    pub fn holding(&self, offset: usize) -> Option<usize> {
        let (&(_, end), &index) = self.replacements.range(..(offset, 0)).next_back()?;
        (offset < end).then_some(index)
    }

    /// The earliest pending insertion strictly inside `range`.
    pub fn inside(&self, range: &Range<usize>) -> Option<usize> {
        if range.end <= range.start + 1 {
            return None;
        }
        self.insertions
            .range(range.start + 1..range.end)
            .flat_map(|(_, at)| at.iter().copied())
            .min()
    }
}
