//! Writing generated rhai source while remembering where each piece came
//! from, so that rhai's (line, column) positions map back to the aspect.

use std::sync::Arc;

use crate::aspect::ast::Span;
use crate::diag::SourceFile;

/// Generated rhai text and its source map.
#[derive(Debug, Default)]
pub struct Emitter {
    out: String,
    line: usize,
    col: usize,
    marks: Vec<Mark>,
    /// End of the last source token written, to reproduce its spacing.
    prev_end: Option<usize>,
}

/// Generated (line, col) where text from `span` starts.
#[derive(Debug, Clone)]
struct Mark {
    line: usize,
    col: usize,
    span: Span,
    /// The text was copied verbatim, so columns inside it map one to one.
    verbatim: bool,
}

/// Maps positions in the generated rhai back to aspect spans.
#[derive(Debug, Default)]
pub struct SourceMap {
    marks: Vec<Mark>,
}

impl Emitter {
    /// An empty emitter; generated positions start at line 1, column 1.
    pub fn new() -> Self {
        Emitter {
            line: 1,
            col: 1,
            ..Emitter::default()
        }
    }

    /// Writes generated glue code that has no source of its own.
    pub fn glue(&mut self, text: &str) {
        self.prev_end = None;
        self.write(text);
    }

    /// Writes `text` standing for the source at `span` (a rewritten token).
    pub fn token(&mut self, span: &Span, text: &str) {
        self.spacing(span);
        self.mark(span, false);
        self.write(text);
        self.prev_end = Some(span.range.end);
    }

    /// Writes the source text of `span` unchanged.
    pub fn verbatim(&mut self, span: &Span) {
        self.spacing(span);
        self.mark(span, true);
        self.write(span.text());
        self.prev_end = Some(span.range.end);
    }

    /// Marks the start of a generated construct (e.g. an insert call) so
    /// that errors in it point at `span`.
    pub fn at(&mut self, span: &Span) {
        self.prev_end = None;
        self.mark(span, false);
    }

    /// The generated text and its source map.
    pub fn finish(self) -> (String, SourceMap) {
        (self.out, SourceMap { marks: self.marks })
    }

    /// Reproduces the source's spacing before a token: a newline if the
    /// source had one (keeping generated lines close to aspect lines), else
    /// a space if the source had any gap.
    fn spacing(&mut self, span: &Span) {
        let gap = match self.prev_end {
            Some(end) if end <= span.range.start => span.file.text.get(end..span.range.start),
            _ => Some(" "),
        };
        match gap {
            Some(g) if g.contains('\n') => self.write("\n"),
            Some("") => {}
            _ => self.write(" "),
        }
    }

    fn mark(&mut self, span: &Span, verbatim: bool) {
        self.marks.push(Mark {
            line: self.line,
            col: self.col,
            span: span.clone(),
            verbatim,
        });
    }

    fn write(&mut self, text: &str) {
        for c in text.chars() {
            if c == '\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
        }
        self.out.push_str(text);
    }
}

impl SourceMap {
    /// The aspect file and byte offset of generated `line`, `col` (1-based,
    /// as rhai reports them), if any source maps there.
    pub fn lookup(&self, line: usize, col: usize) -> Option<(Arc<SourceFile>, usize)> {
        let index = self.marks.partition_point(|m| (m.line, m.col) <= (line, col));
        let mark = self.marks.get(index.checked_sub(1)?)?;
        let start = mark.span.range.start;
        let offset = if mark.verbatim && mark.line == line {
            let within = mark.span.text().char_indices().nth(col - mark.col);
            within.map_or(mark.span.range.end, |(i, _)| start + i)
        } else {
            start
        };
        Some((Arc::clone(&mark.span.file), offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_generated_positions_back() {
        let file = SourceFile::new("a.lara", "x = foo;\n  y");
        let span = |r: std::ops::Range<usize>| Span {
            file: Arc::clone(&file),
            range: r,
        };
        let mut e = Emitter::new();
        e.glue("let weft = 1;\n");
        e.verbatim(&span(0..1));
        e.token(&span(2..3), "=");
        e.verbatim(&span(4..7));
        e.verbatim(&span(11..12));
        let (text, map) = e.finish();
        // A token after glue is separated by a space.
        assert_eq!(text, "let weft = 1;\n x = foo\ny");
        assert_eq!(map.lookup(2, 7).map(|(_, o)| o), Some(5)); // the first `o` of foo
        assert_eq!(map.lookup(3, 1).map(|(_, o)| o), Some(11));
        assert!(map.lookup(1, 3).is_none());
    }
}
