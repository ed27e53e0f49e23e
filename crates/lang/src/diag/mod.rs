//! Diagnostics for aspect files: a message anchored at a span of a source
//! file, rendered with codespan-reporting as `file:line:col`, the source line
//! with a caret under the span, and an optional hint.

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;

/// An aspect source file, shared by the syntax tree and the diagnostics
/// that point into it.
#[derive(Debug, PartialEq, Eq)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

impl SourceFile {
    /// A source file held in memory.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Arc<SourceFile> {
        Arc::new(SourceFile {
            path: path.into(),
            text: text.into(),
        })
    }

    /// 1-based line and column (in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset);
        let (line, _) = weft_text::line_col(&self.text, offset);
        let line_start = weft_text::line_start(&self.text, offset);
        (line, self.text[line_start..offset].chars().count() + 1)
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about an aspect, usually anchored at a span.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The file and byte range the message is about.
    pub at: Option<(Arc<SourceFile>, Range<usize>)>,
    /// Shown under the caret, e.g. "did you mean `loop`?".
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error at `range` of `file`.
    pub fn error(file: &Arc<SourceFile>, range: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            at: Some((Arc::clone(file), range)),
            hint: None,
        }
    }

    /// An error about no particular place.
    pub fn bare(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            at: None,
            hint: None,
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same diagnostic as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// `path:line:col` of the start of the span, if there is one.
    pub fn location(&self) -> Option<String> {
        self.at.as_ref().map(|(file, range)| {
            let (line, col) = file.line_col(range.start);
            format!("{}:{line}:{col}", file.path.display())
        })
    }

    /// Renders the diagnostic: a header, `--> file:line:col`, the source
    /// line with carets under the span, and the hint.
    pub fn render(&self) -> String {
        let severity = match self.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
        };
        let mut diagnostic = cs::Diagnostic::new(severity).with_message(&self.message);
        let config = term::Config {
            chars: term::Chars::ascii(),
            ..term::Config::default()
        };
        let Some((file, range)) = &self.at else {
            let hint = self.hint.as_ref().map(|h| format!("\n  = {h}"));
            let level = match self.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            return format!("{level}: {}{}\n", self.message, hint.unwrap_or_default());
        };
        let start = floor_char_boundary(&file.text, range.start);
        let end = floor_char_boundary(&file.text, range.end.max(start));
        let label = cs::Label::primary((), start..end);
        diagnostic = diagnostic.with_labels(vec![match &self.hint {
            Some(hint) => label.with_message(hint),
            None => label,
        }]);
        let simple = SimpleFile::new(file.path.display().to_string(), file.text.as_str());
        term::emit_into_string(&config, &simple, &diagnostic)
            .map(|text| clip_long_lines(&text))
            .unwrap_or_else(|_| format!("{}: {}\n", self.location().unwrap_or_default(), self.message))
    }
}

/// Rendered lines longer than this are clipped around the caret.
const MAX_SHOWN_LINE: usize = 160;

/// Clips over-long source lines of a rendered diagnostic (a generated or
/// minified aspect) to a window around the caret, keeping the caret under
/// the text it marks; lines stay whole otherwise.
fn clip_long_lines(rendered: &str) -> String {
    let lines: Vec<&str> = rendered.lines().collect();
    let Some(caret_line) = lines
        .iter()
        .position(|l| l.contains('^') && l.trim_start().starts_with('|'))
    else {
        return rendered.to_string();
    };
    let caret = lines[caret_line].find('^').unwrap_or(0);
    if caret_line == 0 || lines[caret_line - 1].len() <= MAX_SHOWN_LINE || !lines[caret_line - 1].is_ascii() {
        return rendered.to_string();
    }
    let gutter = lines[caret_line].find('|').map_or(0, |g| g + 2);
    let from = caret.saturating_sub(MAX_SHOWN_LINE / 2).max(gutter);
    let clip = |line: &str| -> String {
        let end = (from + MAX_SHOWN_LINE / 2 + 20).min(line.len());
        let head = &line[..gutter.min(line.len())];
        let body = line.get(from..end).unwrap_or("");
        let more = if end < line.len() { " ..." } else { "" };
        let marker = if from > gutter { "... " } else { "" };
        format!("{head}{marker}{body}{more}")
    };
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[caret_line - 1] = clip(lines[caret_line - 1]);
    let marker = if from > gutter { "    " } else { "" };
    let caret_text = &lines[caret_line][..gutter.min(lines[caret_line].len())];
    out[caret_line] = format!(
        "{caret_text}{marker}{}",
        lines[caret_line].get(from..).unwrap_or("").trim_end()
    );
    out.join("\n") + "\n"
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// Several diagnostics, e.g. every problem `weft check` found.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// True if any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Diagnostics(vec![diagnostic])
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for diagnostic in &self.0 {
            f.write_str(&diagnostic.render())?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The closest of `candidates` to `name`, if reasonably close: the hint for
/// an unknown aspect, label or join point name.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(name, c), c))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.to_string())
}
