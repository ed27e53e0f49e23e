//! Running several passes in a row over a whole program: each pass runs
//! on the committed, re-parsed result of the one before, through
//! [`Program`] (the same path as `weft transform` and an aspect's
//! `perform`), so only the files a pass changed are parsed and walked again.

use std::path::PathBuf;

use super::Program;
use crate::transform::{PassOutcome, TransformError, canonical_name};
use weft_c::FrontEnd;

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
/// understood) and looking for project headers in `include_dirs` too.
/// Returns the final texts (same order) and one report per pass.
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
    let mut program = Program::new(front_end.clone(), files.iter().cloned());
    program.add_include_dirs(include_dirs);
    let all: Vec<usize> = (0..files.len()).collect();
    let mut report = Vec::new();
    for name in names {
        let outcomes = program.run_pass(name, &all, 0)?;
        program.commit();
        report.push(PassReport { pass: name, outcomes });
    }
    let texts = (0..files.len()).map(|i| program.text(i).to_string()).collect();
    Ok((texts, report))
}
