//! Running several passes in a row over a whole program: apply a pass's
//! edits to every file, re-parse, rebuild the semantics, run the next pass.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{PassOutcome, TransformError, canonical_name, run};
use crate::c::{FrontEnd, ParsedFile};
use crate::edit::Edit;
use crate::sema::Semantics;

/// Applies sorted, non-overlapping edits (as [`run`] returns them) to the
/// text they were computed on.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len() + edits.len() * 16);
    let mut at = 0;
    for edit in edits {
        let start = edit.range.start.clamp(at, text.len());
        out.push_str(&text[at..start]);
        out.push_str(&edit.text);
        at = edit.range.end.clamp(start, text.len());
    }
    out.push_str(&text[at..]);
    out
}

/// What one pass did to every file of the program.
#[derive(Debug, Clone)]
pub struct PassReport {
    /// Canonical pass name.
    pub pass: &'static str,
    /// One outcome per file, in the program's file order.
    pub outcomes: Vec<PassOutcome>,
}

/// Runs `passes` in order over the program made of `files` (path and
/// text), parsing with `front_end` (its macro table decides what is
/// understood). Returns the final texts (same order) and one report per pass.
pub fn transform_text(
    front_end: &FrontEnd,
    files: &[(PathBuf, String)],
    passes: &[&str],
    include_dirs: &[PathBuf],
) -> Result<(Vec<String>, Vec<PassReport>), TransformError> {
    let names: Vec<&'static str> = passes
        .iter()
        .map(|p| canonical_name(p))
        .collect::<Result<_, _>>()?;
    let mut texts: Vec<String> = files.iter().map(|(_, t)| t.clone()).collect();
    let mut report = Vec::new();
    for name in names {
        let parsed: Vec<ParsedFile> = files
            .iter()
            .zip(&texts)
            .map(|((path, _), text)| front_end.parse(path, Arc::from(text.as_str())))
            .collect();
        let parse_header = |path: &Path, text: Arc<str>| front_end.parse(path, text);
        let sema = Semantics::build_with(&parsed, include_dirs, &parse_header);
        let mut outcomes = Vec::with_capacity(parsed.len());
        for (i, file) in parsed.iter().enumerate() {
            let outcome = run(name, file, &sema, i)?;
            texts[i] = apply_edits(&file.text, &outcome.edits);
            outcomes.push(outcome);
        }
        report.push(PassReport { pass: name, outcomes });
    }
    Ok((texts, report))
}
