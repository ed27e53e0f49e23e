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
use std::time::Duration;

use anyhow::{Context, bail};
use weft_monitor::nonterm::harness::SVCOMP_HARNESS;
use weft_monitor::nonterm::{Report, ReportFile, read_all};
use weft_run::{Abnormal, RunRecord, execute};
use weft_weave::{Services, weave_tree};

use weft_interrupt as interrupt;

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

/// What to check and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The program's C files.
    pub files: Vec<PathBuf>,
    /// Define the SV-COMP `__VERIFIER_nondet_*()` functions from a seeded
    /// random stream.
    pub svcomp: bool,
    /// How many runs (seeds 0..N with `svcomp`); at least 1.
    pub runs: usize,
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
    pub runs: Vec<RunRecord>,
    /// Whether each run left a report.
    pub reported: Vec<bool>,
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
    let weave_lines = weave(args, &work)?;
    let program = build(args, &work)?;
    eprintln!(
        "running {} {} time{} (timeout {} s each)…",
        program.display(),
        runs,
        if runs == 1 { "" } else { "s" },
        timeout
    );
    let mut outcome = Outcome {
        weave_lines,
        runs: Vec::new(),
        reported: Vec::new(),
        loops: BTreeMap::new(),
    };
    for run in 0..runs {
        let (record, files) = run_once(args, &work, &program, run)?;
        outcome.reported.push(files.iter().any(|f| !f.reports.is_empty()));
        outcome.runs.push(record);
        for file in files {
            for report in &file.reports {
                let Some(decl) = file.loops.get(report.site) else {
                    continue;
                };
                let key = (file.unit.clone(), decl.line, decl.function.clone());
                outcome
                    .loops
                    .entry(key)
                    .and_modify(|l| l.runs += 1)
                    .or_insert_with(|| LoopFinding {
                        runs: 1,
                        first: (run, file.clone(), report.clone()),
                    });
            }
        }
    }
    Ok(outcome)
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

/// Runs the program once, in `work/runs/RUN`, and reads its reports.
fn run_once(
    args: &Options,
    work: &Path,
    program: &Path,
    run: usize,
) -> anyhow::Result<(RunRecord, Vec<ReportFile>)> {
    let dir = work.join("runs").join(run.to_string());
    let cwd = dir.join("cwd");
    let out = dir.join("out");
    std::fs::create_dir_all(&cwd)?;
    std::fs::create_dir_all(&out)?;
    let env: BTreeMap<String, String> = [
        ("WEFT_OUT", out.display().to_string()),
        ("WEFT_SEED", run.to_string()),
        ("WEFT_NONTERM_POLICY", args.policy.clone()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let argv: Vec<String> = std::iter::once(program.display().to_string())
        .chain(args.program_args.iter().cloned())
        .collect();
    let timeout = Duration::from_secs_f64(args.timeout);
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
    let files = read_all(&[out])?;
    Ok((record, files))
}

/// How a run ended, in words.
pub fn ending(record: &RunRecord, reported: bool) -> &'static str {
    match (record.abnormal, reported) {
        (_, true) => "reported",
        (Some(Abnormal::Timeout), false) => "timed out without a report",
        (Some(Abnormal::Crash), false) => "crashed",
        (Some(Abnormal::OutputCap), false) => "stopped for writing too much",
        (Some(Abnormal::Spawn), false) => "did not start",
        (None, false) => "ended",
    }
}

impl Outcome {
    /// The exit status: 1 a loop reported, 3 none but a run timed out or
    /// did not start, else 0.
    pub fn status(&self) -> i32 {
        if !self.loops.is_empty() {
            1
        } else if self
            .runs
            .iter()
            .any(|r| matches!(r.abnormal, Some(Abnormal::Timeout | Abnormal::Spawn)))
        {
            3
        } else {
            0
        }
    }

    /// Runs counted by how they ended.
    pub fn endings(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for (record, &reported) in self.runs.iter().zip(&self.reported) {
            *counts.entry(ending(record, reported)).or_default() += 1;
        }
        counts
    }
}
