//! The dynamic check: weave aspects/nonterm.lara into C files, build them
//! with the system C compiler, run the program (several times, with seeded
//! `__VERIFIER_nondet_*()` values under `svcomp`), and gather per loop
//! whether it was reported, in how many runs, and the first witness.
//! `weft nonterm check` parses its arguments into [`Options`] and prints
//! the [`Outcome`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use weft_monitor::nonterm::harness::{STACK_OVERFLOW_MARK, SVCOMP_HARNESS};
use weft_monitor::nonterm::{Report, ReportFile, read_all};
use weft_run::{Abnormal, RunRecord, execute};
use weft_weave::{Services, weave_tree};

use weft_interrupt as interrupt;
use weft_loops::Semantics;

use crate::dictionary::{DICTIONARY_VARIABLE, dictionary};
use crate::presets::{PRESET_VARIABLE, Preset, presets};

/// The monitor's aspect, shipped inside the binary so that `check` works
/// wherever weft is installed.
const NONTERM_ASPECT: &str = include_str!("../../../aspects/nonterm.lara");

/// The aspect that runs the GotoLoops pass before the monitor is woven.
const GOTO_LOOPS_ASPECT: &str =
    "aspectdef GotoLoops\n    select program end\n    apply $program.perform GotoLoops(); end\nend\n";

/// Seconds each solver query of the weave may take (`weft weave`'s
/// default).
const SOLVER_TIMEOUT: Duration = Duration::from_secs(10);

/// Bytes of stdout or stderr kept per run; a run writing more is stopped.
const OUTPUT_CAP: u64 = 16 << 20;

/// The most runs a budget ([`Options::budget`]) adds up to, whatever time
/// is left: each run keeps a record.
pub const MOST_RUNS: usize = 10_000;

/// Under a budget, the runs that timed out without a report in the first
/// half of it are run again in the second half, each once, on the same
/// seed, with up to this many times `--timeout` (what is left of the
/// budget): a hang is where the time pays, since an inexact loop is
/// reported only after its patience (100,000,000 iterations, a second or
/// more on a loaded machine) and a long cycle after two periods; the
/// first half keeps drawing, since a hang the monitor cannot see would
/// otherwise take the whole budget.
const RETRY_FACTOR: f64 = 10.0;

/// What to check and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The program's C files.
    pub files: Vec<PathBuf>,
    /// Define the SV-COMP `__VERIFIER_nondet_*()` functions from a seeded
    /// random stream.
    pub svcomp: bool,
    /// How many runs are always made (seeds 0..N with `svcomp`); at least
    /// 1.
    pub runs: usize,
    /// Seconds of runs to spend: after `runs` runs, more runs (the next
    /// seeds) while the runs so far took less than half of this in all
    /// and no loop was reported, up to [`MOST_RUNS`]; then the runs that
    /// timed out without a report again, with the rest (`RETRY_FACTOR`);
    /// 0 for exactly `runs` runs.
    pub budget: f64,
    /// Seconds each run may take before it is stopped.
    pub timeout: f64,
    /// What a report does: abort, log or break.
    pub policy: String,
    /// How states are compared: brent or interval.
    pub schedule: String,
    /// Recurrence conditions: auto (bitvector when a solver is on `$PATH`),
    /// off, bitvector or ideal.
    pub src: String,
    /// Extra compiler flags.
    pub cflags: Vec<String>,
    /// A file the program reads as its standard input (else none).
    pub stdin: Option<PathBuf>,
    /// A new directory to keep the woven files, the program and each run's
    /// reports in, instead of a temporary one.
    pub keep: Option<PathBuf>,
    /// The program's arguments.
    pub program_args: Vec<String>,
}

/// What the check found.
pub struct Outcome {
    /// The weave's own lines: what was monitored, what not and why.
    pub weave_lines: Vec<String>,
    /// Each run's record: run i on seed i (its last attempt, when the
    /// budget made it again).
    pub runs: Vec<RunRecord>,
    /// How each run ended.
    pub endings: Vec<Ending>,
    /// Reported loops by (file, line, function), in order.
    pub loops: BTreeMap<(String, usize, String), LoopFinding>,
}

/// One reported loop over all runs.
pub struct LoopFinding {
    pub runs: usize,
    /// The first run's number, report file and report.
    pub first: (usize, ReportFile, Report),
}

/// Weaves, builds and runs; usage, weave and build errors are errors,
/// whatever the runs do is the outcome. Interrupted, it kills what it
/// started and removes its scratch (`weft_interrupt`).
pub fn check(args: &Options) -> anyhow::Result<Outcome> {
    let (runs, timeout) = (args.runs, args.timeout);
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    if !(timeout.is_finite() && timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
    if !(args.budget.is_finite() && args.budget >= 0.0) {
        bail!("--budget must be a number of seconds, 0 or more");
    }
    for file in args.files.iter().chain(&args.stdin) {
        if !file.is_file() {
            bail!("{}: no such file", file.display());
        }
    }
    let temp;
    let _removed;
    interrupt::guard("weft nonterm check");
    let work = match &args.keep {
        Some(dir) => {
            std::fs::create_dir(dir)
                .with_context(|| format!("--keep {}: cannot create a new directory", dir.display()))?;
            std::path::absolute(dir)?
        }
        None => {
            temp = tempfile::tempdir()?;
            _removed = interrupt::RemovedOnSignal::new(temp.path().to_path_buf());
            temp.path().to_path_buf()
        }
    };
    let mut weave_lines = weave(args, &work)?;
    let presets = input_presets(args, &work);
    for (run, preset) in presets.iter().enumerate() {
        weave_lines.push(format!(
            "inputs reaching the recurrence condition of {}: {} (run {run})",
            preset.place,
            preset.model.join(", ")
        ));
    }
    let program = build(args, &work)?;
    let mut outcome = Outcome {
        weave_lines,
        runs: Vec::new(),
        endings: Vec::new(),
        loops: BTreeMap::new(),
    };
    run_all(args, &work, &program, &presets, &mut outcome)?;
    Ok(outcome)
}

/// Makes the runs: `args.runs` of them, then more while the budget lasts
/// and nothing was reported; each run's seed is its number.
fn run_all(
    args: &Options,
    work: &Path,
    program: &Path,
    presets: &[Preset],
    outcome: &mut Outcome,
) -> anyhow::Result<()> {
    let (runs, timeout, budget) = (args.runs, args.timeout, args.budget);
    let more = if budget > 0.0 {
        format!(", then more within {budget} s until a loop is reported")
    } else {
        String::new()
    };
    eprintln!(
        "running {} {runs} time{}{more} (timeout {timeout} s each)…",
        program.display(),
        if runs == 1 { "" } else { "s" },
    );
    let inputs = Inputs {
        dictionary: args
            .svcomp
            .then(|| dictionary(&args.files.iter().map(PathBuf::as_path).collect::<Vec<_>>())),
        presets,
    };
    let start = Instant::now();
    let elapsed = || start.elapsed().as_secs_f64();
    let mut hung = Vec::new();
    let mut run = 0;
    while run < runs || (run < MOST_RUNS && outcome.loops.is_empty() && elapsed() < budget / 2.0) {
        let (record, files, overflowed) = run_once(args, work, program, run, &inputs, timeout)?;
        if record.abnormal == Some(Abnormal::Timeout) && files.iter().all(|f| f.reports.is_empty()) {
            hung.push(run);
        }
        outcome.set_run(run, record, files, overflowed);
        run += 1;
    }
    for run in hung {
        let left = (budget - elapsed()).min(RETRY_FACTOR * timeout);
        if !outcome.loops.is_empty() || left <= timeout {
            break;
        }
        let (record, files, overflowed) = run_once(args, work, program, run, &inputs, left)?;
        outcome.set_run(run, record, files, overflowed);
    }
    Ok(())
}

/// Weaves the monitor into the files under `work/woven`, in this
/// process; returns the weave's lines (what it printed, what it refused).
fn weave(args: &Options, work: &Path) -> anyhow::Result<Vec<String>> {
    let (files, mut lines) = goto_loops(args, work)?;
    let aspect = work.join("nonterm.lara");
    std::fs::write(&aspect, NONTERM_ASPECT)?;
    let inputs: Vec<(String, String)> = [
        ("policy", args.policy.as_str()),
        ("schedule", args.schedule.as_str()),
        ("src", src_semantics(&args.src)),
        ("svcomp", if args.svcomp { "on" } else { "off" }),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value.to_string()))
    .collect();
    let services = Services {
        apis: weft_monitor::SCRIPT_APIS,
        loops: Some(Arc::new(weft_loops::SolverAnalysis::new(None, SOLVER_TIMEOUT))),
        limits: weft_lang::Limits::default(),
        echo: false,
    };
    let woven = weave_tree(&aspect, &inputs, &files, &services)
        .map_err(|e| anyhow::anyhow!("weaving failed:\n{e}"))?;
    lines.extend(woven.lines());
    woven.write(&work.join("woven"))?;
    Ok(lines)
}

/// Runs the GotoLoops pass (docs/transforms.md) over the program, so that
/// the monitor watches its backward `goto` loops too, as `for (;;)` loops
/// written under `work/loops`: returns the paths to weave, and a line for
/// each goto loop the pass left alone (why it could not become a loop).
fn goto_loops(args: &Options, work: &Path) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
    let aspect = work.join("goto_loops.lara");
    std::fs::write(&aspect, GOTO_LOOPS_ASPECT)?;
    let services = Services {
        apis: &[],
        loops: None,
        limits: weft_lang::Limits::default(),
        echo: false,
    };
    let transformed = weave_tree(&aspect, &[], &args.files, &services)
        .map_err(|e| anyhow::anyhow!("the goto-loop pass failed:\n{e}"))?;
    let lines = transformed
        .program
        .skipped()
        .iter()
        .map(|skipped| format!("not monitored: {skipped}"))
        .collect();
    let dir = work.join("loops");
    transformed.write(&dir)?;
    let files = args
        .files
        .iter()
        .map(|f| {
            let name = f
                .file_name()
                .with_context(|| format!("{}: not a file", f.display()))?;
            Ok(dir.join(name))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok((files, lines))
}

/// Under `svcomp`, the input values that reach each loop's recurrence
/// condition (`crate::presets`), read from the files woven (after the
/// goto-loop pass), one run each from the first; none without a solver or
/// with `--src off`.
fn input_presets(args: &Options, work: &Path) -> Vec<Preset> {
    let semantics = match src_semantics(&args.src) {
        "bitvector" => Semantics::BitVector,
        "ideal" => Semantics::Ideal,
        _ => return Vec::new(),
    };
    let Ok(solver) = weft_smt::Solver::find(None, SOLVER_TIMEOUT) else {
        return Vec::new();
    };
    if !args.svcomp {
        return Vec::new();
    }
    let dir = work.join("loops");
    let files: Vec<PathBuf> = args
        .files
        .iter()
        .filter_map(|f| Some(dir.join(f.file_name()?)))
        .collect();
    let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    presets(&files, semantics, &solver)
}

/// The `src` input of the aspect: `auto` is bitvector when a solver is on
/// `$PATH`.
fn src_semantics(requested: &str) -> &str {
    match requested {
        "auto" if weft_smt::Solver::find(None, Duration::from_secs(1)).is_ok() => "bitvector",
        "auto" => "off",
        other => other,
    }
}

/// Builds the woven files (and the SV-COMP harness) into `work/program`.
fn build(args: &Options, work: &Path) -> anyhow::Result<PathBuf> {
    let mut sources = Vec::new();
    collect_c_files(&work.join("woven"), &mut sources)?;
    if args.svcomp {
        let harness = work.join("weft_svcomp_harness.c");
        std::fs::write(&harness, SVCOMP_HARNESS)?;
        sources.push(harness);
    }
    let program = work.join("program");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let mut command = Command::new(&cc);
    command.args(["-w", "-O1", "-o"]).arg(&program).args(&sources);
    for file in &args.files {
        let dir = file
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        command.arg("-I").arg(dir);
    }
    command.args(&args.cflags).arg("-lm");
    let out = command
        .output()
        .with_context(|| format!("cannot run the C compiler `{cc}`"))?;
    if !out.status.success() {
        bail!(
            "the woven program does not build with `{cc}`:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(program)
}

fn collect_c_files(dir: &Path, into: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect_c_files(&path, into)?;
        } else if path.extension().is_some_and(|e| e == "c") {
            into.push(path);
        }
    }
    Ok(())
}

/// What the harness is given besides the seed: the dictionary (under
/// `svcomp`) and the presets of the first runs.
struct Inputs<'a> {
    dictionary: Option<String>,
    presets: &'a [Preset],
}

/// Runs the program once, in `work/runs/RUN` (removed afterwards unless
/// kept), and reads its reports and whether it overflowed its stack.
fn run_once(
    args: &Options,
    work: &Path,
    program: &Path,
    run: usize,
    inputs: &Inputs,
    timeout: f64,
) -> anyhow::Result<(RunRecord, Vec<ReportFile>, bool)> {
    let dir = work.join("runs").join(run.to_string());
    let cwd = dir.join("cwd");
    let out = dir.join("out");
    std::fs::create_dir_all(&cwd)?;
    std::fs::create_dir_all(&out)?;
    let env: BTreeMap<String, String> = [
        ("WEFT_OUT", Some(out.display().to_string())),
        ("WEFT_SEED", Some(run.to_string())),
        ("WEFT_NONTERM_POLICY", Some(args.policy.clone())),
        (PRESET_VARIABLE, inputs.presets.get(run).map(Preset::env)),
        (DICTIONARY_VARIABLE, inputs.dictionary.clone()),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k.to_string(), v?)))
    .collect();
    let argv: Vec<String> = std::iter::once(program.display().to_string())
        .chain(args.program_args.iter().cloned())
        .collect();
    let timeout = Duration::from_secs_f64(timeout);
    let stdin = args.stdin.as_ref().map(std::path::absolute).transpose()?;
    let run = execute(
        &weft_run::command(&argv),
        &cwd,
        &env,
        stdin.as_deref(),
        &[],
        timeout,
        OUTPUT_CAP,
    )?;
    run.save_texts(&dir)?;
    let record = run.record;
    let overflowed = out.join(STACK_OVERFLOW_MARK).exists();
    let files = read_all(&[out])?;
    if args.keep.is_none() {
        std::fs::remove_dir_all(&dir)?;
    }
    Ok((record, files, overflowed))
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    /// A loop was reported.
    Reported,
    /// Exited by itself.
    Ended,
    /// Stopped at the timeout without a report: a hang the monitor did
    /// not see.
    TimedOut,
    /// Killed by SIGABRT without a report: a failed assertion or `abort()`.
    Aborted,
    /// Died when its stack pointer passed the stack's limit (seen by the
    /// SV-COMP harness): under drawn inputs, mostly a size drawn too large.
    StackOverflow,
    /// Killed by another signal.
    Crashed,
    /// Stopped for writing more than the output cap.
    OutputCap,
    /// Could not be started.
    DidNotStart,
}

impl Ending {
    /// How a run with this record ended; `reported`: it left a report;
    /// `overflowed`: the harness saw its stack overflow.
    pub fn of(record: &RunRecord, reported: bool, overflowed: bool) -> Ending {
        const SIGABRT_STATUS: i32 = 128 + libc::SIGABRT;
        match (record.abnormal, reported) {
            (_, true) => Ending::Reported,
            (Some(Abnormal::Timeout), false) => Ending::TimedOut,
            (Some(Abnormal::Crash), false) if overflowed => Ending::StackOverflow,
            (Some(Abnormal::Crash), false) if record.status == SIGABRT_STATUS => Ending::Aborted,
            (Some(Abnormal::Crash), false) => Ending::Crashed,
            (Some(Abnormal::OutputCap), false) => Ending::OutputCap,
            (Some(Abnormal::Spawn), false) => Ending::DidNotStart,
            (None, false) => Ending::Ended,
        }
    }

    /// The ending in words, as `check` prints it.
    pub fn words(self) -> &'static str {
        match self {
            Ending::Reported => "reported",
            Ending::Ended => "ended",
            Ending::TimedOut => "timed out without a report",
            Ending::Aborted => "aborted",
            Ending::StackOverflow => "overflowed the stack",
            Ending::Crashed => "crashed",
            Ending::OutputCap => "stopped for writing too much",
            Ending::DidNotStart => "did not start",
        }
    }
}

impl Outcome {
    /// Adds run `run`'s record, reports and ending, or replaces those of
    /// an earlier run on its seed that timed out without a report.
    fn set_run(&mut self, run: usize, record: RunRecord, files: Vec<ReportFile>, overflowed: bool) {
        let reported = files.iter().any(|f| !f.reports.is_empty());
        let ending = Ending::of(&record, reported, overflowed);
        if run < self.runs.len() {
            (self.runs[run], self.endings[run]) = (record, ending);
        } else {
            self.endings.push(ending);
            self.runs.push(record);
        }
        for file in files {
            for report in &file.reports {
                let Some(decl) = file.loops.get(report.site) else {
                    continue;
                };
                let key = (file.unit.clone(), decl.line, decl.function.clone());
                self.loops
                    .entry(key)
                    .and_modify(|l| l.runs += 1)
                    .or_insert_with(|| LoopFinding {
                        runs: 1,
                        first: (run, file.clone(), report.clone()),
                    });
            }
        }
    }

    /// The exit status: 1 a loop reported, 3 none but a run timed out or
    /// did not start, else 0.
    pub fn status(&self) -> i32 {
        if !self.loops.is_empty() {
            1
        } else if self
            .endings
            .iter()
            .any(|e| matches!(e, Ending::TimedOut | Ending::DidNotStart))
        {
            3
        } else {
            0
        }
    }

    /// Runs counted by how they ended.
    pub fn ending_counts(&self) -> BTreeMap<Ending, usize> {
        let mut counts = BTreeMap::new();
        for &ending in &self.endings {
            *counts.entry(ending).or_default() += 1;
        }
        counts
    }
}
