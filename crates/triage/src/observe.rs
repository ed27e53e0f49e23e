//! Running every revision on every input, in parallel, through weft's one
//! way to run a program under a timeout (`weft_run::execute`), and
//! reducing each run to an [`Observation`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, bail};
use rayon::prelude::*;
use weft_run::{Abnormal, Execution, RunRecord, execute};

use super::inputs::Input;
use super::table::{Aspect, Observation, Outputs, ProcessValues, Table};
use weft_run::Progress;
use weft_run::quote;

/// Bytes of stdout or stderr kept per run; a run writing more is stopped
/// and observed as `output cap`.
pub const OUTPUT_CAP: u64 = 4 << 20;

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    pub revisions: Vec<u32>,
    pub inputs: Vec<Input>,
    /// The command's words, for file inputs (tests are whole commands).
    pub program: Vec<String>,
    /// Where every run starts (so the command's relative paths mean what
    /// they meant where weft was started).
    pub start_dir: PathBuf,
    /// What of each run is kept in its observation.
    pub compare: Vec<Aspect>,
    /// How long a run may take before it is stopped.
    pub timeout: Duration,
    /// Runs at a time; 0 = one per core.
    pub jobs: usize,
    /// A new directory keeping every run's files; else a temporary one.
    pub keep: Option<PathBuf>,
}

/// The table of what the runs did, and how long running and cleaning up
/// took (the scratch directory is removed after the runs, and on some file
/// systems that is slow: it is measured apart).
pub struct Observed {
    pub table: Table,
    pub run_time: Duration,
    pub clean_up_time: Duration,
}

/// Runs every revision on every input and returns the table of what they
/// did. A run that times out or crashes is an observation; only what
/// stops weft itself (a scratch directory it cannot write) is an error.
/// Without `keep`, each worker reuses one directory for all its runs and
/// outputs stay in memory, so a run costs no new directory.
pub fn observe(plan: &Plan) -> anyhow::Result<Observed> {
    let start = std::time::Instant::now();
    let scratch = Scratch::new(plan.keep.as_deref())?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(plan.jobs).build()?;
    let runs: Vec<(u32, usize)> = plan
        .revisions
        .iter()
        .flat_map(|&r| (0..plan.inputs.len()).map(move |i| (r, i)))
        .collect();
    let progress = Progress::new("triage", "runs", runs.len());
    let texts = Mutex::new(BTreeMap::new());
    let problems = Mutex::new(Vec::new());
    let observed: anyhow::Result<Vec<Observation>> = pool.install(|| {
        runs.par_iter()
            .map(|&(revision, input)| {
                let dir = match &scratch {
                    Scratch::Kept(dir) => dir.join(format!("rev-{revision}")).join(format!("input-{input}")),
                    Scratch::Temporary { dir, .. } => dir
                        .path()
                        .join(format!("worker-{}", rayon::current_thread_index().unwrap_or(0))),
                };
                let run = Run {
                    plan,
                    revision,
                    input: &plan.inputs[input],
                    dir: &dir,
                };
                let observation = run.observe(&texts, &problems);
                progress.step();
                observation
            })
            .collect()
    });
    // Runs killed by a signal must not be taken for observations.
    weft_interrupt::settle();
    progress.finish();
    let rows = observed?
        .chunks(plan.inputs.len())
        .map(<[Observation]>::to_vec)
        .collect();
    let mut table = Table::new(
        plan.revisions.clone(),
        plan.inputs.clone(),
        plan.compare.clone(),
        rows,
    );
    table.texts = texts.into_inner().unwrap_or_else(|e| e.into_inner());
    table.problems = problems.into_inner().unwrap_or_else(|e| e.into_inner());
    table.problems.sort();
    let run_time = start.elapsed();
    drop(scratch);
    Ok(Observed {
        table,
        run_time,
        clean_up_time: start.elapsed() - run_time,
    })
}

/// Where the runs' files go: a kept directory, or a temporary one removed
/// at the end, on an error, and on SIGINT, SIGTERM or SIGHUP (which also
/// stop every run: `weft_interrupt`).
enum Scratch {
    Kept(PathBuf),
    // Fields drop in order: the registration for removal on a signal ends
    // before the directory is removed.
    Temporary {
        _removed: weft_interrupt::RemovedOnSignal,
        dir: tempfile::TempDir,
    },
}

impl Scratch {
    fn new(keep: Option<&Path>) -> anyhow::Result<Scratch> {
        // On a signal the runs are killed in any case; only a temporary
        // directory is removed (a kept one is the user's).
        weft_interrupt::guard("weft triage");
        match keep {
            Some(dir) => {
                if dir.exists() {
                    bail!("--keep {}: give a new directory (it exists)", dir.display());
                }
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
                Ok(Scratch::Kept(std::path::absolute(dir)?))
            }
            None => {
                let dir = tempfile::tempdir().context("cannot create a temporary directory")?;
                let _removed = weft_interrupt::RemovedOnSignal::new(dir.path().to_path_buf());
                Ok(Scratch::Temporary { _removed, dir })
            }
        }
    }
}

/// One revision on one input, in a directory (its own when kept, else its
/// worker's, emptied first): `cwd` (where the shell starts) and `out` (the
/// run's `$WEFT_OUT`); a kept run's `stdout` and `stderr` are saved
/// beside them.
struct Run<'a> {
    plan: &'a Plan,
    revision: u32,
    input: &'a Input,
    dir: &'a Path,
}

impl Run<'_> {
    fn observe(
        &self,
        texts: &Mutex<BTreeMap<String, Vec<u8>>>,
        problems: &Mutex<Vec<String>>,
    ) -> anyhow::Result<Observation> {
        let (cwd, out) = (self.dir.join("cwd"), self.dir.join("out"));
        for dir in [&cwd, &out] {
            empty(dir)?;
        }
        let run = self.execute(&out, &cwd)?;
        let record = &run.record;
        let compares = |aspect| self.plan.compare.contains(&aspect);
        let mut observation = Observation::default();
        if compares(Aspect::Status) {
            observation.status = Some(status(record));
        }
        for (aspect, digest, text, slot) in [
            (
                Aspect::Stdout,
                &record.stdout,
                &run.stdout,
                &mut observation.stdout,
            ),
            (
                Aspect::Stderr,
                &record.stderr,
                &run.stderr,
                &mut observation.stderr,
            ),
        ] {
            if compares(aspect) {
                texts
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(digest.clone())
                    .or_insert_with(|| text.clone());
                *slot = Some(digest.clone());
            }
        }
        if compares(Aspect::Outputs) {
            observation.outputs = Some(read_outputs(&out).unwrap_or_else(|err| {
                let name = &self.input.name;
                let problem = format!("revision {} on {name}: unreadable outputs: {err}", self.revision);
                problems.lock().unwrap_or_else(|e| e.into_inner()).push(problem);
                Outputs::Unreadable
            }));
        }
        Ok(observation)
    }

    fn execute(&self, out: &Path, cwd: &Path) -> anyhow::Result<Execution> {
        let (command, stdin) = self.input.shell_command(&self.plan.program);
        // `execute` starts the shell in `cwd`; the command itself starts
        // where weft was started.
        let script = format!(
            "cd {} || exit 125\n{command}",
            quote(&self.plan.start_dir.display().to_string())
        );
        let env: BTreeMap<String, String> = [
            ("WEFT_REV".to_string(), self.revision.to_string()),
            ("WEFT_OUT".to_string(), out.display().to_string()),
        ]
        .into();
        let run = execute(&script, cwd, &env, stdin, &[], self.plan.timeout, OUTPUT_CAP)
            .with_context(|| format!("cannot run revision {} on {}", self.revision, self.input.name))?;
        if self.plan.keep.is_some() {
            run.save_texts(self.dir)?;
        }
        Ok(run)
    }
}

/// Makes `dir` an empty directory (a worker's directory keeps nothing of
/// its previous run).
fn empty(dir: &Path) -> anyhow::Result<()> {
    let fresh = || std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()));
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Ok(true) => Ok(()),
        Ok(false) => {
            std::fs::remove_dir_all(dir).with_context(|| format!("cannot empty {}", dir.display()))?;
            fresh()
        }
        Err(_) => fresh(),
    }
}

/// How the run ended, in words.
fn status(record: &RunRecord) -> String {
    match record.abnormal {
        None => format!("exit {}", record.status),
        Some(Abnormal::Crash) => format!("signal {}", record.status - 128),
        Some(Abnormal::Timeout) => "timeout".into(),
        Some(Abnormal::OutputCap) => "output cap".into(),
        Some(Abnormal::Spawn) => "did not start".into(),
    }
}

/// The values the outputs monitor captured in a run, without process ids.
fn read_outputs(out: &Path) -> Result<Outputs, weft_monitor::ReadError> {
    let records = weft_monitor::outputs::read_dir(out)?;
    let mut values: Vec<ProcessValues> = records.into_iter().map(|r| (r.unit, r.values)).collect();
    values.sort();
    Ok(Outputs::Values(values))
}
