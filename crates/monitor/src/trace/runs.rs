//! Likely invariants from traced runs: feed runs' trace files to the
//! engine, and check a run's trace files against learned invariants.

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;
use weft_invariants::{Checks, Engine, EngineError, Violation, show_value};

use super::Traces;
use super::points::FileView;
use super::record::{FORMAT, Sample, TraceFile, open_trace};
use super::unseen::{UNSEEN_KIND, UNSEEN_TEXT, UnseenPoints};
use crate::monitor::Monitor;
use crate::record::{ReadError, RecordError};

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
    /// A path that does not exist, a directory that cannot be listed, or
    /// one without trace files where some were expected.
    #[error(transparent)]
    Records(#[from] ReadError),
    /// A Daikon file that does not follow the format (its line named).
    #[error(transparent)]
    Daikon(#[from] weft_invariants::daikon::ReadError),
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
        return Err(ReadError::Empty {
            path: dir.to_path_buf(),
            extension: FORMAT.extension,
        }
        .into());
    }
    Ok(runs
        .into_iter()
        .map(|(name, files)| TraceRun { name, files })
        .collect())
}

/// Feeds every sample of `files` to `engine`, streaming each file (one
/// sample in memory at a time); returns the samples fed and whether a file
/// was capped (`WEFT_TRACE_MAX_MB`).
pub fn learn(engine: &mut Engine, files: &[PathBuf]) -> Result<Fed, TraceError> {
    let mut fed = Fed::default();
    for file in files {
        let (head, mut samples) = open_trace(file).map_err(TraceError::Read)?;
        let view = FileView::new(&head.unit, &head.points);
        let ids: Vec<_> = view.points.iter().map(|p| engine.declare(p.clone())).collect();
        let mut result = Ok(());
        view.replay(samples.by_ref(), |point, _, values| {
            fed.samples += 1;
            if result.is_ok() {
                result = engine.add_sample(ids[point], values);
            }
        })
        .map_err(|e| read_error(file, e))?;
        result.map_err(|error| TraceError::Engine {
            file: file.clone(),
            error,
        })?;
        fed.capped |= samples.capped();
    }
    Ok(fed)
}

/// What [`learn`] (or [`super::daikon::learn_inputs`]) fed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Fed {
    pub samples: u64,
    pub capped: bool,
}

/// Feeds one trace read whole to `engine`.
pub fn learn_file(engine: &mut Engine, trace: &TraceFile) -> Result<(), EngineError> {
    let view = FileView::new(&trace.unit, &trace.points);
    let ids: Vec<_> = view.points.iter().map(|p| engine.declare(p.clone())).collect();
    let mut result = Ok(());
    let Ok(()) = view.replay(in_memory(trace), |point, _, values| {
        if result.is_ok() {
            result = engine.add_sample(ids[point], values);
        }
    });
    result
}

/// The samples of a trace read whole, as a replay reads them.
fn in_memory(trace: &TraceFile) -> impl Iterator<Item = Result<Sample, Infallible>> + '_ {
    trace.samples.iter().cloned().map(Ok)
}

/// An error found while streaming `file`.
fn read_error(file: &Path, e: RecordError) -> TraceError {
    TraceError::Read(format!("{}: {e}", file.display()))
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
    /// How many distinct points the run sampled.
    pub points: usize,
    /// How many of those no training run sampled (whatever `unseen` says
    /// is a finding): all of them when the run is of another program.
    pub unseen_points: usize,
    /// Sorted by point, then invariant text.
    pub findings: Vec<Finding>,
}

impl RunCheck {
    /// Whether the run violated nothing learned.
    pub fn passes(&self) -> bool {
        self.findings.is_empty()
    }
}

/// What checking several runs against one set of learned invariants
/// found, run by run in the order given.
#[derive(Debug, Clone, PartialEq)]
pub struct RunsCheck {
    /// How many invariants were checked.
    pub invariants: usize,
    /// Each run (a directory or a trace file) and what checking it found.
    pub runs: Vec<(PathBuf, RunCheck)>,
}

impl RunsCheck {
    /// How many runs violated something learned.
    pub fn failed(&self) -> usize {
        self.runs.iter().filter(|(_, r)| !r.passes()).count()
    }

    /// How many runs share no program point with the training runs: runs
    /// of another program, or whose files were renamed.
    pub fn foreign(&self) -> usize {
        self.runs
            .iter()
            .filter(|(_, r)| r.unseen_points > 0 && r.unseen_points == r.points)
            .count()
    }
}

/// Checks each of `runs` (a directory of trace files or one trace file, see
/// [`Monitor::files_each`]) against `checks`, as [`check`] does.
pub fn check_runs(checks: &Checks, runs: &[PathBuf], unseen: UnseenPoints) -> Result<RunsCheck, TraceError> {
    let mut checked = Vec::with_capacity(runs.len());
    for run in runs {
        let files = Traces::files_each(std::slice::from_ref(run))?;
        checked.push((run.clone(), check(checks, &files, unseen)?));
    }
    Ok(RunsCheck {
        invariants: checks.len(),
        runs: checked,
    })
}

/// Checks every sample of `files` against `checks`, streaming each file;
/// `unseen` says which points training never sampled are findings when
/// reached.
pub fn check(checks: &Checks, files: &[PathBuf], unseen: UnseenPoints) -> Result<RunCheck, TraceError> {
    let mut run = Checking::new(&[(checks, unseen)]);
    for file in files {
        let (head, samples) = open_trace(file).map_err(TraceError::Read)?;
        run.file(file, &head.unit, &head.points, samples)
            .map_err(|e| read_error(file, e))??;
    }
    Ok(run.finish().pop().unwrap_or_default())
}

/// Checks every sample of traces read whole (each with the file it came
/// from) against each of `sets` (learned invariants, and which points
/// training never sampled are findings when reached: of kind
/// [`UNSEEN_KIND`]) in one replay of the samples: per set, in order, what
/// checking against it alone finds.
pub fn check_traces(
    sets: &[(&Checks, UnseenPoints)],
    traces: &[(PathBuf, TraceFile)],
) -> Result<Vec<RunCheck>, TraceError> {
    let mut run = Checking::new(sets);
    for (file, trace) in traces {
        let Ok(checked) = run.file(file, &trace.unit, &trace.points, in_memory(trace));
        checked?;
    }
    Ok(run.finish())
}

/// What a run violated against one learned set, by (point, invariant
/// text).
type Found<'a> = BTreeMap<(&'a str, &'a str), Finding>;

/// One run being checked against several learned sets, file after file.
struct Checking<'a> {
    checks: Vec<&'a Checks>,
    /// Per set.
    unseen: Vec<UnseenPoints>,
    found: Vec<Found<'a>>,
    /// Per set, the samples at each point it flags as unseen.
    unseen_found: Vec<BTreeMap<String, u64>>,
    samples: u64,
    /// Every point sampled, and per set whether training sampled it.
    reached: HashMap<String, Vec<bool>>,
}

impl<'a> Checking<'a> {
    fn new(sets: &[(&'a Checks, UnseenPoints)]) -> Self {
        Checking {
            checks: sets.iter().map(|&(c, _)| c).collect(),
            unseen: sets.iter().map(|&(_, u)| u).collect(),
            found: sets.iter().map(|_| BTreeMap::new()).collect(),
            unseen_found: sets.iter().map(|_| BTreeMap::new()).collect(),
            samples: 0,
            reached: HashMap::new(),
        }
    }

    /// Checks the samples of one file of `unit`; the outer error is one
    /// reading them, the inner one the engine's.
    fn file<E>(
        &mut self,
        file: &Path,
        unit: &str,
        points: &[super::spec::PointDecl],
        samples: impl IntoIterator<Item = Result<Sample, E>>,
    ) -> Result<Result<(), TraceError>, E> {
        let view = FileView::new(unit, points);
        let mut bound: Vec<_> = view
            .points
            .iter()
            .map(|p| Checks::bind_sets(&self.checks, p))
            .collect();
        // Per point, the sets that flag a sample there as unseen.
        let flagged: Vec<Vec<usize>> = bound
            .iter()
            .map(|b| {
                (0..self.checks.len())
                    .filter(|&s| self.unseen[s].flags(b.decl(), b.unseen(s)))
                    .collect()
            })
            .collect();
        let mut sampled = vec![0u64; view.points.len()];
        let mut error = None;
        let found = &mut self.found;
        view.replay(samples, |point, _, values| {
            sampled[point] += 1;
            let checked = bound[point].check(values, |set, v| record(&mut found[set], &v));
            if let Err(e) = checked {
                error = error.take().or(Some(e));
            }
        })?;
        for (point, &n) in sampled.iter().enumerate().filter(|(_, n)| **n > 0) {
            let name = &view.points[point].name;
            self.samples += n;
            self.reached
                .entry(name.clone())
                .or_insert_with(|| (0..self.checks.len()).map(|s| bound[point].unseen(s)).collect());
            for &set in &flagged[point] {
                *self.unseen_found[set].entry(name.clone()).or_default() += n;
            }
        }
        Ok(match error {
            Some(error) => Err(TraceError::Engine {
                file: file.to_path_buf(),
                error,
            }),
            None => Ok(()),
        })
    }

    /// Per set, what the run violated.
    fn finish(self) -> Vec<RunCheck> {
        let reached = &self.reached;
        self.found
            .into_iter()
            .zip(self.unseen_found)
            .enumerate()
            .map(|(set, (found, unseen))| {
                let mut findings: BTreeMap<(String, String), Finding> = found
                    .into_iter()
                    .map(|((point, text), f)| ((point.to_string(), text.to_string()), f))
                    .collect();
                for (point, count) in unseen {
                    findings.insert(
                        (point.clone(), UNSEEN_TEXT.to_string()),
                        unseen_finding(point, count),
                    );
                }
                RunCheck {
                    samples: self.samples,
                    points: reached.len(),
                    unseen_points: reached.values().filter(|u| u[set]).count(),
                    findings: findings.into_values().collect(),
                }
            })
            .collect()
    }
}

/// The finding of `count` samples at a point training never sampled.
fn unseen_finding(point: String, count: u64) -> Finding {
    Finding {
        point,
        kind: UNSEEN_KIND.to_string(),
        invariant: UNSEEN_TEXT.to_string(),
        count,
        witness: Vec::new(),
    }
}

/// Counts a violation under its (point, invariant), keeping the first
/// witness.
fn record<'a>(found: &mut Found<'a>, v: &Violation<'a>) {
    found
        .entry((v.point, v.invariant.text.as_str()))
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use weft_invariants::{Checks, Config, Engine, Value};

    use super::{check_traces, learn_file};
    use crate::record::Header;
    use crate::trace::UnseenPoints;
    use crate::trace::record::{Sample, TraceFile};
    use crate::trace::spec::{Layout, PointDecl, PointKind, VarDecl, VarKind};

    /// A trace of `f(x)` (entry, an inner point at line 3 with `x`, the
    /// exit at line 5 with `x`): per call, x at entry, and whether it
    /// reached the inner point.
    fn trace(calls: &[(i64, bool)]) -> (PathBuf, TraceFile) {
        let var = || VarDecl {
            name: "x".into(),
            kind: VarKind::I64,
            layout: Layout::Plain,
        };
        let point = |kind, line| PointDecl {
            function: "f".into(),
            kind,
            line,
            vars: vec![var()],
        };
        let mut samples = Vec::new();
        for (nonce, &(x, inner)) in calls.iter().enumerate() {
            let sample = |point, x| Sample {
                point,
                nonce: nonce as u64,
                values: vec![Value::Int(x)],
            };
            samples.push(sample(0, x));
            if inner {
                samples.push(sample(1, x * 2));
            }
            samples.push(sample(2, x + 1));
        }
        let trace = TraceFile {
            header: Header {
                layout: [0; 3],
                pid: 1,
                ppid: 0,
                time: 0,
            },
            unit: "u.c".into(),
            points: vec![
                point(PointKind::Enter, 1),
                point(PointKind::Inner, 3),
                point(PointKind::Exit, 5),
            ],
            samples,
            capped: false,
        };
        (PathBuf::from("u.trace"), trace)
    }

    fn learned(calls: &[(i64, bool)]) -> Checks {
        let mut engine = Engine::new(Config::default());
        learn_file(&mut engine, &trace(calls).1).unwrap();
        Checks::new(engine.finish())
    }

    #[test]
    fn a_run_checked_against_several_sets_at_once_finds_what_each_finds_alone() {
        let small: Vec<(i64, bool)> = (0..30).map(|x| (x % 5, false)).collect();
        let wide: Vec<(i64, bool)> = (0..30).map(|x| (x % 9 - 2, x % 3 == 0)).collect();
        let mut sets = vec![learned(&small), learned(&wide), learned(&small[..10])];
        Checks::number_alike(&mut sets);
        let run = [trace(&[(7, true), (1, false), (-2, true), (3, false)])];
        let modes = [UnseenPoints::Off, UnseenPoints::Inner, UnseenPoints::All];
        let against: Vec<(&Checks, UnseenPoints)> = sets
            .iter()
            .flat_map(|set| modes.map(|mode| (set, mode)))
            .collect();
        let together = check_traces(&against, &run).unwrap();
        assert_eq!(together.len(), against.len());
        for (one, found) in against.iter().zip(&together) {
            let alone = check_traces(std::slice::from_ref(one), &run).unwrap();
            assert_eq!(alone, std::slice::from_ref(found));
        }
        // What makes the comparison worth making: violations and unseen
        // points found, differently per set and mode.
        let small_off = &together[0];
        assert!(!small_off.passes() && small_off.samples == 10 && small_off.points == 3);
        assert_eq!(small_off.unseen_points, 1, "no small run reached the inner point");
        let unseen = |i: usize| {
            together[i]
                .findings
                .iter()
                .filter(|f| f.kind == "UnseenPoint")
                .count()
        };
        assert_eq!([unseen(0), unseen(1), unseen(2), unseen(4)], [0, 1, 1, 0]);
        assert_eq!(
            together[1]
                .findings
                .iter()
                .find(|f| f.kind == "UnseenPoint")
                .unwrap()
                .count,
            2
        );
        assert_ne!(together[0].findings, together[3].findings);
    }
}
