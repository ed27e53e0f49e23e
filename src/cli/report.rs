//! The printer seam: what a command found, printed either as text for a
//! person or as one JSON value for a program (`--json`). A command builds
//! a [`Report`] from its finding and calls [`print`]; the choice between
//! the two forms, and where they go, is made here once.

use std::io::{self, Write};

/// A command's finding in its two printed forms.
pub trait Report {
    /// Writes the finding as text for a person.
    fn text(&self, out: &mut dyn Write) -> io::Result<()>;
    /// The finding as one JSON value.
    fn json(&self) -> anyhow::Result<serde_json::Value>;
    /// Whether `--json` prints JSON lines: each element of [`Report::json`]
    /// (an array) compactly on a line of its own, the form of a command
    /// that reports one object per input, rather than the value
    /// pretty-printed; a value that is not an array is printed compactly
    /// on one line (`nonterm check`'s one object).
    fn json_lines(&self) -> bool {
        false
    }
}

/// Which form [`print`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// [`Report::text`].
    Text,
    /// [`Report::json`], pretty-printed.
    Json,
}

impl Format {
    /// The form a command's `--json` flag asks for.
    pub fn from_json_flag(json: bool) -> Self {
        if json { Format::Json } else { Format::Text }
    }
}

/// Prints `report` on stdout in `format`.
pub fn print(report: &dyn Report, format: Format) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match format {
        Format::Text => report.text(&mut out)?,
        Format::Json if report.json_lines() => match report.json()? {
            serde_json::Value::Array(items) => {
                for item in items {
                    writeln!(out, "{item}")?;
                }
            }
            one => writeln!(out, "{one}")?,
        },
        Format::Json => writeln!(out, "{:#}", report.json()?)?,
    }
    out.flush()?;
    Ok(())
}
