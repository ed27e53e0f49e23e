//! Running several passes in a row over a whole program: apply a pass's
//! edits to every file, re-parse what changed, rebuild the semantics, run
//! the next pass.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{PassOutcome, TransformError, canonical_name, run};
use crate::c::{FrontEnd, ParsedFile};
use crate::edit::{EditSet, Op};
use crate::sema::Semantics;

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
///
/// Each pass sees a parse of its predecessor's output, but only the files
/// a pass changed are parsed again (incrementally), and the project
/// headers, which passes never edit, are parsed once for the whole run.
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
    let mut parsed: Vec<ParsedFile> = files
        .iter()
        .map(|(path, text)| front_end.parse(path, Arc::from(text.as_str())))
        .collect();
    let headers: RefCell<HashMap<PathBuf, ParsedFile>> = RefCell::default();
    let parse_header = |path: &Path, text: Arc<str>| {
        let mut headers = headers.borrow_mut();
        match headers.get(path) {
            Some(known) if known.text == text => known.clone(),
            _ => {
                let fresh = front_end.parse(path, text);
                headers.insert(path.to_path_buf(), fresh.clone());
                fresh
            }
        }
    };
    let mut report = Vec::new();
    for name in names {
        let sema = Semantics::build_with(&parsed, include_dirs, &parse_header);
        let mut outcomes = Vec::with_capacity(parsed.len());
        let mut next = Vec::with_capacity(parsed.len());
        for (i, file) in parsed.iter().enumerate() {
            let outcome = run(name, file, &sema, i)?;
            let changed = if outcome.edits.is_empty() {
                None
            } else {
                let mut edits = EditSet::new(file.path.clone(), Arc::clone(&file.text));
                edits.push(outcome.edits.iter().cloned().map(Op::from), 0)?;
                Some(edits.apply())
            };
            next.push(changed);
            outcomes.push(outcome);
        }
        for (file, text) in parsed.iter_mut().zip(next) {
            if let Some(text) = text.filter(|t| **t != *file.text) {
                *file = front_end.reparse(file, Arc::from(text));
            }
        }
        report.push(PassReport { pass: name, outcomes });
    }
    Ok((parsed.iter().map(|f| f.text.to_string()).collect(), report))
}
