//! Likely invariants from traced runs: feed runs' trace files to the
//! engine, and check a run's trace files against learned invariants.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;
use weft_invariants::{Checks, Engine, EngineError, Violation, show_value};

use super::points::FileView;
use super::record::{FORMAT, TraceFile, read_trace};
use super::unseen::{UNSEEN_KIND, UNSEEN_TEXT, UnseenPoints};

/// A trace that cannot be used; every variant names the file.
#[derive(Debug, Error)]
pub enum TraceError {
    /// Unreadable, truncated or corrupt (the message has the offset).
    #[error("{0}")]
    Read(String),
    /// The engine refused a sample (a declaration that changed between
    /// files of one function).
    #[error("{file}: {error}")]
    Engine { file: PathBuf, error: EngineError },
    /// No trace file where one was expected.
    #[error("{0}: no .trace files (was the program woven with a trace aspect and run with WEFT_OUT set?)")]
    Empty(PathBuf),
}

/// One execution's trace files (every unit and forked process).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRun {
    pub name: String,
    pub files: Vec<PathBuf>,
}

/// The runs under `dir` (see [`crate::record::Format::runs_in`]); a
/// directory that holds trace files but no subdirectory run is one run.
pub fn discover_runs(dir: &Path) -> Result<Vec<TraceRun>, TraceError> {
    let runs = FORMAT.runs_in(dir).map_err(TraceError::Read)?;
    if runs.is_empty() {
        return Err(TraceError::Empty(dir.to_path_buf()));
    }
    Ok(runs
        .into_iter()
        .map(|(name, files)| TraceRun { name, files })
        .collect())
}

/// The trace files of one run directory, recursively; none is no error (a
/// run that never reached a traced point).
pub fn run_files(dir: &Path) -> Result<Vec<PathBuf>, TraceError> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    FORMAT
        .files_in(dir)
        .map_err(|e| TraceError::Read(format!("{}: {e}", dir.display())))
}

/// Feeds every sample of `files` to `engine`; returns the samples fed and
/// whether a file was capped (`WEFT_TRACE_MAX_MB`).
pub fn learn(engine: &mut Engine, files: &[PathBuf]) -> Result<Fed, TraceError> {
    let mut fed = Fed::default();
    for file in files {
        let trace = read_trace(file).map_err(TraceError::Read)?;
        learn_file(engine, &trace).map_err(|error| TraceError::Engine {
            file: file.clone(),
            error,
        })?;
        fed.samples += trace.samples.len() as u64;
        fed.capped |= trace.capped;
    }
    Ok(fed)
}

/// What [`learn`] fed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Fed {
    pub samples: u64,
    pub capped: bool,
}

/// Feeds one parsed trace to `engine`.
pub fn learn_file(engine: &mut Engine, trace: &TraceFile) -> Result<(), EngineError> {
    let view = FileView::new(trace);
    let ids: Vec<_> = view.points.iter().map(|p| engine.declare(p.clone())).collect();
    let mut result = Ok(());
    view.replay(trace, |point, _, values| {
        if result.is_ok() {
            result = engine.add_sample(ids[point], values);
        }
    });
    result
}

/// A learned invariant a run violated: where, what, how often, and the
/// first witness.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub point: String,
    /// The invariant's kind (`OneOf`, `LowerBound`, `LinearBinary`, ...).
    pub kind: String,
    pub invariant: String,
    /// Samples that violated it.
    pub count: u64,
    /// The first violating sample's values of the invariant's variables.
    pub witness: Vec<(String, String)>,
}

/// What checking one run found.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct RunCheck {
    pub samples: u64,
    /// Sorted by point, then invariant text.
    pub findings: Vec<Finding>,
}

impl RunCheck {
    /// Whether the run violated nothing learned.
    pub fn passes(&self) -> bool {
        self.findings.is_empty()
    }
}

/// Checks every sample of `files` against `checks`; `unseen` says which
/// points training never sampled are findings when reached.
pub fn check(checks: &Checks, files: &[PathBuf], unseen: UnseenPoints) -> Result<RunCheck, TraceError> {
    let traces = read_all(files)?;
    check_traces(checks, &traces, unseen)
}

/// Reads trace files; the first bad one is the error.
pub fn read_all(files: &[PathBuf]) -> Result<Vec<(PathBuf, TraceFile)>, TraceError> {
    files
        .iter()
        .map(|f| Ok((f.clone(), read_trace(f).map_err(TraceError::Read)?)))
        .collect()
}

/// Checks every sample of parsed traces (each with the file it came from)
/// against `checks`; a sample at a point `unseen` flags is a finding of
/// kind [`UNSEEN_KIND`].
pub fn check_traces(
    checks: &Checks,
    traces: &[(PathBuf, TraceFile)],
    unseen: UnseenPoints,
) -> Result<RunCheck, TraceError> {
    let mut found: BTreeMap<(String, String), Finding> = BTreeMap::new();
    let mut samples = 0;
    for (file, trace) in traces {
        let view = FileView::new(trace);
        let mut bound: Vec<_> = view.points.iter().map(|p| checks.bind(p)).collect();
        let mut error = None;
        view.replay(trace, |point, _, values| {
            samples += 1;
            if unseen.flags(&bound[point]) {
                record_unseen(&mut found, &view.points[point].name);
            }
            match bound[point].check(values) {
                Ok(violations) => {
                    for v in violations {
                        record(&mut found, &v);
                    }
                }
                Err(e) => error = error.take().or(Some(e)),
            }
        });
        if let Some(error) = error {
            return Err(TraceError::Engine {
                file: file.clone(),
                error,
            });
        }
    }
    Ok(RunCheck {
        samples,
        findings: found.into_values().collect(),
    })
}

/// Counts a sample at a point training never sampled.
fn record_unseen(found: &mut BTreeMap<(String, String), Finding>, point: &str) {
    found
        .entry((point.to_string(), UNSEEN_TEXT.to_string()))
        .or_insert_with(|| Finding {
            point: point.to_string(),
            kind: UNSEEN_KIND.to_string(),
            invariant: UNSEEN_TEXT.to_string(),
            count: 0,
            witness: Vec::new(),
        })
        .count += 1;
}

/// Counts a violation under its (point, invariant), keeping the first
/// witness.
fn record(found: &mut BTreeMap<(String, String), Finding>, v: &Violation) {
    let key = (v.point.to_string(), v.invariant.text.clone());
    found
        .entry(key)
        .or_insert_with(|| Finding {
            point: v.point.to_string(),
            kind: v.invariant.kind.clone(),
            invariant: v.invariant.text.clone(),
            count: 0,
            witness: v
                .invariant
                .vars
                .iter()
                .zip(&v.values)
                .map(|(n, x)| (n.clone(), show_value(x)))
                .collect(),
        })
        .count += 1;
}
