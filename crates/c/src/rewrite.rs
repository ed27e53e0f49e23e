//! Rewrites of the original text and the repaired view they produce.
//!
//! Repairs prefer *same-length* rewrites (blanking with spaces, turning a
//! space into `;`): a node around such a rewrite still starts and ends on
//! copied bytes at the original distance, so its whole range maps back and
//! stays editable, while the rewritten bytes themselves never do.

use super::offset_map::OffsetMap;
use std::ops::Range;

/// Replace `range` of the original with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub range: Range<usize>,
    pub text: String,
}

impl Rewrite {
    /// Spaces over `range`, newlines kept so the view keeps its lines (and
    /// directives after it stay at the start of a line).
    pub fn blank(src: &str, range: Range<usize>) -> Rewrite {
        let text = src
            .as_bytes()
            .get(range.clone())
            .unwrap_or_default()
            .iter()
            .map(|&b| if b == b'\n' || b == b'\r' { b as char } else { ' ' })
            .collect();
        Rewrite { range, text }
    }

    /// An empty string literal `""` over `range` (at least two bytes), the
    /// rest blanked like [`Rewrite::blank`].
    pub fn empty_string(src: &str, range: Range<usize>) -> Rewrite {
        let mut rw = Rewrite::blank(src, range);
        rw.text.replace_range(..2, "\"\"");
        rw
    }
}

/// Accepted rewrites, sorted and non-overlapping.
#[derive(Debug, Clone, Default)]
pub struct RewriteSet {
    rewrites: Vec<Rewrite>,
}

impl RewriteSet {
    /// Adds a rewrite unless it overlaps one already accepted (the first
    /// repair of a region wins). Returns whether it was added.
    pub fn add(&mut self, rw: Rewrite) -> bool {
        let pos = self
            .rewrites
            .partition_point(|r| (r.range.start, r.range.end) <= (rw.range.start, rw.range.end));
        let clash_before = pos > 0 && self.rewrites[pos - 1].range.end > rw.range.start;
        let clash_after = self
            .rewrites
            .get(pos)
            .is_some_and(|r| r.range.start < rw.range.end);
        if clash_before || clash_after {
            return false;
        }
        self.rewrites.insert(pos, rw);
        true
    }

    /// Adds `rw`, first dropping the rewrites it fully contains (a wider
    /// blank supersedes the repairs inside it). Fails on a partial overlap.
    pub fn add_over(&mut self, rw: Rewrite) -> bool {
        self.rewrites
            .retain(|r| !(rw.range.start <= r.range.start && r.range.end <= rw.range.end));
        self.add(rw)
    }

    /// The rewrites, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Rewrite> {
        self.rewrites.iter()
    }

    /// Applies the rewrites to `src`: the view and its map to `src`.
    pub fn build_view(&self, src: &str) -> (String, OffsetMap) {
        let mut view = String::with_capacity(src.len() + 16);
        let mut map = OffsetMap::builder();
        let mut at = 0;
        for rw in &self.rewrites {
            // Rewrites are made at token boundaries (ASCII bytes), so these
            // slices are on character boundaries; `get` keeps it panic-free.
            view.push_str(src.get(at..rw.range.start).unwrap_or_default());
            map.copy(at, rw.range.start - at);
            view.push_str(&rw.text);
            map.synth(rw.range.clone(), rw.text.len());
            at = rw.range.end;
        }
        view.push_str(src.get(at..).unwrap_or_default());
        map.copy(at, src.len() - at);
        (view, map.build())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_keep_length_and_lines() {
        let src = "local int\nf OF((x))";
        let mut set = RewriteSet::default();
        assert!(set.add(Rewrite::blank(src, 0..5)));
        assert!(set.add(Rewrite::blank(src, 12..15)));
        assert!(set.add(Rewrite::blank(src, 18..19)));
        assert!(!set.add(Rewrite::blank(src, 3..7)));
        let (view, map) = set.build_view(src);
        assert_eq!(view, "      int\nf    (x) ");
        assert_eq!(map.original_range(6..18), Some(6..18));
        assert_eq!(map.original_range(0..3), None);
    }

    #[test]
    fn insertions_shift_the_rest() {
        let src = "A(x)\nb;";
        let mut set = RewriteSet::default();
        assert!(set.add(Rewrite {
            range: 4..4,
            text: ";".into()
        }));
        let (view, map) = set.build_view(src);
        assert_eq!(view, "A(x);\nb;");
        assert_eq!(map.original_range(6..8), Some(5..7));
        assert_eq!(map.original_range(0..6), None);
    }
}
