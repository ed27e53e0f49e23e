//! `file:line:col` locations of byte offsets, for diagnostics.

use std::fmt;
use std::path::Path;

/// A human-readable position in a file: 1-based line and column (columns
/// count bytes, as compilers do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: String,
    pub line: usize,
    pub col: usize,
}

impl Location {
    /// The location of byte `offset` of `text`, which is the content of `path`.
    /// Offsets past the end are clamped to the end.
    pub fn of(path: &Path, text: &str, offset: usize) -> Location {
        let (line, col) = crate::line_col(text, offset);
        Location {
            path: path.display().to_string(),
            line,
            col,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path, self.line, self.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based() {
        let text = "ab\ncd\n";
        let p = Path::new("f.c");
        assert_eq!(Location::of(p, text, 0).to_string(), "f.c:1:1");
        assert_eq!(Location::of(p, text, 4).to_string(), "f.c:2:2");
        assert_eq!(Location::of(p, text, 99).to_string(), "f.c:3:1");
    }
}
