//! Mapping from the repaired view back to the original text.

use std::ops::Range;

use weft_text::Edit;

/// A piece of the view: either copied verbatim from the original, or
/// synthesized by a repair and anchored at an original range.
#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Copy {
        view: Range<usize>,
        original: usize,
    },
    Synth {
        view: Range<usize>,
        original: Range<usize>,
    },
}

/// Maps byte offsets of the repaired view to byte offsets of the original.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OffsetMap {
    segments: Vec<Segment>,
}

impl OffsetMap {
    /// The map of a view that is the original text unchanged.
    pub fn identity(len: usize) -> OffsetMap {
        OffsetMap {
            segments: vec![Segment::Copy {
                view: 0..len,
                original: 0,
            }],
        }
    }

    /// Builds a map from pieces pushed in view order.
    pub fn builder() -> OffsetMapBuilder {
        OffsetMapBuilder::default()
    }

    /// The original range covering `view`, if both of its ends lie in
    /// copied text and the lengths agree. Repairs that keep their length
    /// inside it (blanked macros) map back with it; `is_verbatim` tells.
    pub fn original_range(&self, view: Range<usize>) -> Option<Range<usize>> {
        // An empty range is a position: it may sit at the end of a copy.
        let start = self.copied_offset(view.start, view.is_empty())?;
        let end = self.copied_offset(view.end, true)?;
        (end >= start && end - start == view.end - view.start).then_some(start..end)
    }

    /// The original offset of view offset `offset` when it lies in copied
    /// text or exactly on the edge of synthesized text (its start, or when
    /// `at_end` its end): a statement that starts with a repaired macro use
    /// (`my_sync(m) {…}` read as `while (m) {…}`) starts where the use
    /// starts. Good for placing code around a node, never for editing
    /// inside it.
    pub fn edge_offset(&self, offset: usize, at_end: bool) -> Option<usize> {
        self.copied_offset(offset, at_end).or_else(|| {
            let idx = self.segments.partition_point(|s| seg_view(s).end < offset);
            self.segments[idx.saturating_sub(1)..]
                .iter()
                .take(3)
                .find_map(|s| match s {
                    Segment::Synth { view, original } if !at_end && view.start == offset => {
                        Some(original.start)
                    }
                    Segment::Synth { view, original } if at_end && view.end == offset => Some(original.end),
                    _ => None,
                })
        })
    }

    /// True when no synthesized byte lies inside `view`.
    pub fn is_verbatim(&self, view: Range<usize>) -> bool {
        let idx = self.segments.partition_point(|s| seg_view(s).end <= view.start);
        self.segments[idx..]
            .iter()
            .take_while(|s| seg_view(s).start < view.end)
            .all(|s| matches!(s, Segment::Copy { .. }) || seg_view(s).is_empty())
    }

    /// Best-effort original offset for a view offset (synthesized text maps to
    /// the start of the original range it replaced). Used for diagnostics.
    pub fn approximate(&self, view_offset: usize) -> usize {
        for seg in &self.segments {
            match seg {
                Segment::Copy { view, original }
                    if view.contains(&view_offset) || view.end == view_offset =>
                {
                    return original + (view_offset - view.start);
                }
                Segment::Synth { view, original } if view.contains(&view_offset) => return original.start,
                _ => {}
            }
        }
        self.segments
            .last()
            .map(|s| match s {
                Segment::Copy { view, original } => original + (view.end - view.start),
                Segment::Synth { original, .. } => original.end,
            })
            .unwrap_or(0)
    }

    /// `at_end`: the offset is an exclusive end, so it may sit at the end of a copy.
    fn copied_offset(&self, view_offset: usize, at_end: bool) -> Option<usize> {
        let idx = self.segments.partition_point(|s| seg_view(s).end < view_offset);
        for seg in &self.segments[idx.saturating_sub(1)..] {
            let v = seg_view(seg);
            if v.start > view_offset {
                break;
            }
            if let Segment::Copy { view, original } = seg {
                let inside = if at_end {
                    view_offset > view.start && view_offset <= view.end
                        || view.is_empty() && view_offset == view.start
                } else {
                    view_offset >= view.start && view_offset < view.end
                };
                if inside {
                    return Some(original + (view_offset - view.start));
                }
            }
        }
        None
    }
    /// The map of the view that results when `edits` (sorted,
    /// non-overlapping, on the original) are made to the original and their
    /// texts spliced verbatim into the view, with each edit's range in the
    /// current view. `None` when an edit touches or borders synthesized
    /// text: then the repairs around it must be worked out again.
    pub fn spliced(&self, edits: &[Edit]) -> Option<(OffsetMap, Vec<Range<usize>>)> {
        let mut map = OffsetMap::builder();
        let mut view_ranges = Vec::with_capacity(edits.len());
        let mut pending = edits.iter().peekable();
        // New original offset minus old, for text after the edits made so far.
        let mut delta: isize = 0;
        let shift = |offset: usize, delta: isize| offset.checked_add_signed(delta);
        let is_synth = |i: Option<usize>| {
            i.and_then(|i| self.segments.get(i))
                .is_some_and(|s| matches!(s, Segment::Synth { .. }))
        };
        for (i, seg) in self.segments.iter().enumerate() {
            match seg {
                Segment::Copy { view, original } => {
                    let end = original + (view.end - view.start);
                    let mut at = *original;
                    while let Some(edit) = pending.next_if(|e| e.range.start <= end) {
                        let borders_synth = (edit.range.start == *original && is_synth(i.checked_sub(1)))
                            || (edit.range.end == end && is_synth(Some(i + 1)));
                        if edit.range.start < at || edit.range.end > end || borders_synth {
                            return None;
                        }
                        map.copy(shift(at, delta)?, edit.range.start - at);
                        map.copy(shift(edit.range.start, delta)?, edit.text.len());
                        let in_view = |o: usize| view.start + (o - original);
                        view_ranges.push(in_view(edit.range.start)..in_view(edit.range.end));
                        delta += edit.text.len() as isize - edit.range.len() as isize;
                        at = edit.range.end;
                    }
                    map.copy(shift(at, delta)?, end - at);
                }
                Segment::Synth { view, original } => {
                    if pending.peek().is_some_and(|e| e.range.start < original.end) {
                        return None;
                    }
                    map.synth(
                        shift(original.start, delta)?..shift(original.end, delta)?,
                        view.end - view.start,
                    );
                }
            }
        }
        pending.peek().is_none().then(|| (map.build(), view_ranges))
    }
}

fn seg_view(seg: &Segment) -> &Range<usize> {
    match seg {
        Segment::Copy { view, .. } | Segment::Synth { view, .. } => view,
    }
}

/// Accumulates segments while a repaired view is built.
#[derive(Debug, Default)]
pub struct OffsetMapBuilder {
    segments: Vec<Segment>,
    view_len: usize,
}

impl OffsetMapBuilder {
    /// `len` bytes copied verbatim from `original_start`.
    pub fn copy(&mut self, original_start: usize, len: usize) {
        if len == 0 {
            return;
        }
        if let Some(Segment::Copy { view, original }) = self.segments.last_mut()
            && *original + (view.end - view.start) == original_start
            && view.end == self.view_len
        {
            view.end += len;
            self.view_len += len;
            return;
        }
        self.segments.push(Segment::Copy {
            view: self.view_len..self.view_len + len,
            original: original_start,
        });
        self.view_len += len;
    }

    /// `len` synthesized bytes standing for `original`.
    pub fn synth(&mut self, original: Range<usize>, len: usize) {
        self.segments.push(Segment::Synth {
            view: self.view_len..self.view_len + len,
            original,
        });
        self.view_len += len;
    }

    /// The finished map.
    pub fn build(self) -> OffsetMap {
        OffsetMap {
            segments: self.segments,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_maps_every_range_to_itself() {
        let m = OffsetMap::identity(10);
        assert_eq!(m.original_range(2..7), Some(2..7));
        assert_eq!(m.original_range(0..10), Some(0..10));
        assert_eq!(m.original_range(10..10), Some(10..10));
    }

    #[test]
    fn synthesized_text_is_not_mappable_but_copies_around_it_are() {
        // original: "local int x;" -> view: "int x;" with "local " blanked as synth of len 0
        let mut b = OffsetMap::builder();
        b.copy(0, 4); // "abcd"
        b.synth(4..9, 2); // 5 original bytes became 2
        b.copy(9, 3);
        let m = b.build();
        assert_eq!(m.original_range(0..4), Some(0..4));
        assert_eq!(m.original_range(6..9), Some(9..12));
        assert_eq!(m.original_range(3..7), None);
        assert_eq!(m.approximate(5), 4);
    }
}
