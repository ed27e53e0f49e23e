//! Traces and Daikon's formats: learning from the inputs `weft invariants
//! learn` names (trace files, directories of them, Daikon files), and
//! writing traces as one `.dtrace` file for Daikon itself.

use std::collections::HashSet;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use weft_invariants::daikon::{DtraceReader, DtraceWriter, Invocations, feed};
use weft_invariants::{Engine, PointKind};

use super::Traces;
use super::points::FileView;
use super::record::open_trace;
use super::runs::{Fed, TraceError, learn};
use crate::monitor::Monitor;
use crate::record::ReadError;

/// The first line of the .dtrace files weft writes: how it knows its own.
pub const DTRACE_MARK: &str = "// Daikon trace written by weft";

/// Whether `path` names a Daikon file (`.dtrace` or `.decls`).
pub fn is_daikon(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "dtrace" || x == "decls")
}

/// Feeds `engine` every sample of `inputs`: Daikon files (in order, as
/// [`feed_daikon`] does) and traces, each a trace file or a directory of
/// them ([`Monitor::files_each`]). Only traces can be capped.
pub fn learn_inputs(engine: &mut Engine, inputs: &[PathBuf]) -> Result<Fed, TraceError> {
    let (daikon, traces): (Vec<PathBuf>, Vec<PathBuf>) = inputs.iter().cloned().partition(|p| is_daikon(p));
    let mut fed = Fed::default();
    if !daikon.is_empty() {
        fed.samples += feed_daikon(engine, &daikon)?;
    }
    if !traces.is_empty() {
        let traced = learn(engine, &Traces::files_each(&traces)?)?;
        fed.samples += traced.samples;
        fed.capped = traced.capped;
    }
    Ok(fed)
}

/// Feeds Daikon files in order: declarations carry over from one file to
/// the next, so a .decls file may precede the .dtrace files using it.
pub fn feed_daikon(engine: &mut Engine, files: &[PathBuf]) -> Result<u64, TraceError> {
    let open = |p: &PathBuf| {
        std::fs::File::open(p)
            .map(BufReader::new)
            .map_err(|cause| ReadError::Io {
                path: p.clone(),
                cause,
            })
    };
    let Some(first) = files.first() else { return Ok(0) };
    let mut reader = DtraceReader::new(open(first)?, first.display().to_string());
    let mut invocations = Invocations::default();
    let mut samples = feed(engine, &mut reader, &mut invocations)?;
    for file in &files[1..] {
        reader = reader.then(open(file)?, file.display().to_string());
        samples += feed(engine, &mut reader, &mut invocations)?;
    }
    Ok(samples)
}

/// Writes the samples of `files` as one .dtrace stream, headed by
/// [`DTRACE_MARK`], each point declared once, before its first sample.
/// Exits carry their invocation's nonce, from which Daikon derives
/// `orig(x)` itself.
pub fn export(files: &[PathBuf], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{DTRACE_MARK}")?;
    let mut writer = DtraceWriter::new(out);
    let mut declared = HashSet::new();
    for file in files {
        let (head, samples) = open_trace(file).map_err(std::io::Error::other)?;
        let view = FileView::for_daikon(&head.unit, &head.points);
        let new: Vec<_> = view
            .points
            .iter()
            .filter(|p| declared.insert(p.name.clone()))
            .cloned()
            .collect();
        writer.decls(&new)?;
        let mut result = Ok(());
        view.replay(samples, |point, nonce, values| {
            if result.is_ok() {
                // Daikon pairs entries with exits by nonce; a point inside a
                // function has no partner, so it carries none.
                let decl = &view.points[point];
                let nonce = (decl.kind != PointKind::Point).then_some(nonce);
                result = writer.sample(decl, nonce, values);
            }
        })
        .map_err(|e| std::io::Error::other(format!("{}: {e}", file.display())))?;
        result?;
    }
    Ok(())
}
