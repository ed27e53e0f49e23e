//! Byte-range edits on a text.

use std::ops::Range;

/// One change to a file's current text: replace `range` by `text`. An empty
/// range is an insertion at `range.start`. Offsets are bytes of the text the
/// edit was computed against (never of a repaired view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// `text` with `edits` (sorted, non-overlapping, on character boundaries)
/// applied, in one pass.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_applies_inserts_and_replacements_in_one_pass() {
        let edits = [
            Edit {
                range: 0..0,
                text: "<".into(),
            },
            Edit {
                range: 2..4,
                text: "XY".into(),
            },
            Edit {
                range: 6..6,
                text: ">".into(),
            },
        ];
        assert_eq!(splice("abcdef", &edits), "<abXYef>");
    }
}
