//! Byte offsets to 1-based lines and columns. Columns count bytes, as
//! compilers do, unless a function says otherwise.

/// The start of every line of a text, for many look-ups in one text.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(newline_offsets(text).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The 1-based line of byte `offset` (offsets past the end are on the
    /// last line).
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }

    /// The 1-based line and byte column of `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line(offset);
        (line, offset - self.starts[line - 1] + 1)
    }

    /// The byte offset where 1-based `line` starts, if the text has it.
    pub fn start_of(&self, line: usize) -> Option<usize> {
        line.checked_sub(1).and_then(|i| self.starts.get(i)).copied()
    }
}

fn newline_offsets(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i)
}

/// The 1-based line and byte column of `offset` in `text`, for a single
/// look-up (build a [`LineIndex`] for many). Offsets past the end are
/// clamped to the end.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    (line, offset - line_start(text, offset) + 1)
}

/// The byte offset where the line holding `offset` starts.
pub fn line_start(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_and_the_single_look_up_agree() {
        let text = "ab\ncd\n\nx";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() {
            assert_eq!(index.line_col(offset), line_col(text, offset), "offset {offset}");
        }
        assert_eq!(line_col(text, 4), (2, 2));
        assert_eq!(index.start_of(3), Some(6));
        assert_eq!(index.start_of(9), None);
    }
}
