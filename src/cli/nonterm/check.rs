//! `weft nonterm check`: weave aspects/nonterm.lara into C files, build
//! them with the system C compiler, run the program (several times, with
//! seeded `__VERIFIER_nondet_*()` values under `--svcomp`), and say per
//! loop whether it was monitored and whether it was reported, with the
//! witness.
//!
//! Exit status: 0 nothing reported and every run ended; 1 a loop was
//! reported; 2 usage, weave or build error; 3 nothing reported but a run
//! timed out or did not start (a hang the monitor did not see, or no run
//! at all).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::json;
use weft_monitor::nonterm::harness::SVCOMP_HARNESS;
use weft_monitor::nonterm::{Report, ReportFile};
use weft_study::run::{Abnormal, RunRecord, execute};

use super::show::{describe, read_all, report_json};
use weft_interrupt as interrupt;

/// The monitor's aspect, shipped inside the binary so that `check` works
/// wherever weft is installed.
const NONTERM_ASPECT: &str = include_str!("../../../aspects/nonterm.lara");

/// Bytes of stdout or stderr kept per run; a run writing more is stopped.
const OUTPUT_CAP: u64 = 16 << 20;

/// Weave, build and run a C program under the non-termination monitor.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  weft nonterm check prog.c -- 5            # run `prog 5` once
  weft nonterm check --svcomp --runs 20 benchmark.c
  weft nonterm check --policy log --timeout 2 --json a.c b.c
  weft nonterm check --stdin crash-input examples/nonterm-fuzz/tlv.c
  weft nonterm check --src ideal grow.c     # also check recurrence conditions

The program is built with `$CC` (or cc) from the woven files, with -I for each
input's directory. Each run gets its own $WEFT_OUT; with --svcomp, run i has
WEFT_SEED=i. A run that times out without a report is counted apart: a hang
the monitor did not see (its state does not repeat, or a loop is not
monitored).")]
pub struct Args {
    /// The program's C files.
    #[arg(required = true, value_name = "FILE.c")]
    files: Vec<PathBuf>,
    /// Define the SV-COMP `__VERIFIER_nondet_*()` functions from a seeded
    /// random stream (`__VERIFIER_assume(0)` ends a run quietly).
    #[arg(long)]
    svcomp: bool,
    /// How many runs (seeds 0..N with --svcomp). Default 1, or 10 with
    /// --svcomp (each seed draws other inputs).
    #[arg(long, value_name = "N")]
    runs: Option<usize>,
    /// Seconds each run may take before it is stopped. Default 10, or 1
    /// with --svcomp.
    #[arg(long, value_name = "S")]
    timeout: Option<f64>,
    /// What a report does: abort (stop the run), log (go on) or break
    /// (leave the loop).
    #[arg(long, default_value = "abort", value_parser = ["abort", "log", "break"])]
    policy: String,
    /// How states are compared: brent (one saved state, O(1) per
    /// iteration) or interval (EndWatch's stored hashes, for comparison).
    #[arg(long, default_value = "brent", value_parser = ["brent", "interval"])]
    schedule: String,
    /// Also check each loop's sufficient recurrence condition, found at
    /// weave time by an SMT solver (z3 or cvc5), under bitvector (wrap at
    /// the types' widths) or ideal integers: a loop is reported as soon as
    /// its condition holds, even if its state never repeats. auto (the
    /// default): bitvector when a solver is on $PATH, else off.
    #[arg(long, value_name = "SEMANTICS", default_value = "auto",
          value_parser = ["auto", "off", "bitvector", "ideal"])]
    src: String,
    /// An extra compiler flag (repeatable), e.g. --cflag=-DNDEBUG.
    #[arg(long = "cflag", value_name = "FLAG", allow_hyphen_values = true)]
    cflags: Vec<String>,
    /// A file the program reads as its standard input (else none).
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Keep the woven files, the program and each run's reports in DIR (a
    /// new directory) instead of a temporary one.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The program's arguments, after `--`.
    #[arg(last = true, value_name = "ARGS")]
    program_args: Vec<String>,
}

impl Args {
    fn runs(&self) -> usize {
        self.runs.unwrap_or(if self.svcomp { 10 } else { 1 })
    }

    fn timeout(&self) -> f64 {
        self.timeout.unwrap_or(if self.svcomp { 1.0 } else { 10.0 })
    }
}

/// Runs the check; usage, weave and build errors are exit status 2.
pub fn run(args: &Args) -> anyhow::Result<i32> {
    let checked = check(args);
    interrupt::settle();
    match checked {
        Ok(outcome) => {
            if args.json {
                println!("{}", outcome.to_json());
            } else {
                outcome.print();
            }
            Ok(outcome.status())
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            Ok(2)
        }
    }
}

/// What the check found.
struct Outcome {
    /// The weave's own lines: what was monitored, what not and why.
    weave_lines: Vec<String>,
    runs: Vec<RunRecord>,
    /// Whether each run left a report.
    reported: Vec<bool>,
    /// Reported loops by (file, line, function), in order.
    loops: BTreeMap<(String, usize, String), LoopFinding>,
}

/// One reported loop over all runs.
struct LoopFinding {
    runs: usize,
    /// The first run's report file and report.
    first: (usize, ReportFile, Report),
}

fn check(args: &Args) -> anyhow::Result<Outcome> {
    let (runs, timeout) = (args.runs(), args.timeout());
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

/// Weaves the monitor into the files under `work/woven`; returns the
/// weave's report lines.
fn weave(args: &Args, work: &Path) -> anyhow::Result<Vec<String>> {
    let (files, mut lines) = goto_loops(args, work)?;
    let aspect = work.join("nonterm.lara");
    std::fs::write(&aspect, NONTERM_ASPECT)?;
    let out = Command::new(std::env::current_exe()?)
        .args(["weave", "--aspect"])
        .arg(&aspect)
        .arg("--arg")
        .arg(format!("policy={}", args.policy))
        .arg("--arg")
        .arg(format!("schedule={}", args.schedule))
        .arg("--arg")
        .arg(format!("src={}", src_semantics(&args.src)))
        .arg("--arg")
        .arg(format!("svcomp={}", if args.svcomp { "on" } else { "off" }))
        .arg("--output")
        .arg(work.join("woven"))
        .args(&files)
        .output()
        .context("cannot run weft weave")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        bail!("weaving failed:\n{stdout}{stderr}");
    }
    lines.extend(stdout.lines().chain(stderr.lines()).map(str::to_string));
    Ok(lines)
}

/// The files with their backward `goto` loops made `for (;;)` loops (the
/// GotoLoops pass, docs/transforms.md), so the monitor watches them too,
/// under `work/loops`: the paths to weave, and a line for each such loop
/// left alone (why it could not be made a loop).
fn goto_loops(args: &Args, work: &Path) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
    let dir = work.join("loops");
    let out = Command::new(std::env::current_exe()?)
        .args(["transform", "--pass", "GotoLoops", "--output"])
        .arg(&dir)
        .args(&args.files)
        .output()
        .context("cannot run weft transform")?;
    if !out.status.success() {
        bail!(
            "the goto-loop pass failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let lines = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("GotoLoops: "))
        .map(|l| format!("not monitored: {l}"))
        .collect();
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
fn build(args: &Args, work: &Path) -> anyhow::Result<PathBuf> {
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
    args: &Args,
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
    let command: Vec<String> = std::iter::once(program.display().to_string())
        .chain(args.program_args.iter().cloned())
        .map(|a| sh_quote(&a))
        .collect();
    let timeout = Duration::from_secs_f64(args.timeout());
    let stdin = args.stdin.as_ref().map(std::path::absolute).transpose()?;
    let run = execute(
        &command.join(" "),
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

/// `text` quoted for `sh`.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// How a run ended, in words.
fn ending(record: &RunRecord, reported: bool) -> &'static str {
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
    fn status(&self) -> i32 {
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
    fn endings(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for (record, &reported) in self.runs.iter().zip(&self.reported) {
            *counts.entry(ending(record, reported)).or_default() += 1;
        }
        counts
    }

    fn print(&self) {
        for line in &self.weave_lines {
            println!("{line}");
        }
        for ((_, _, _), finding) in &self.loops {
            let (run, file, report) = &finding.first;
            println!(
                "{} (in {} of {} runs; first in run {run})",
                describe(file, report),
                finding.runs,
                self.runs.len()
            );
        }
        let endings: Vec<String> = self.endings().iter().map(|(e, n)| format!("{n} {e}")).collect();
        println!(
            "{} loop{} reported; {} run{}: {}",
            self.loops.len(),
            if self.loops.len() == 1 { "" } else { "s" },
            self.runs.len(),
            if self.runs.len() == 1 { "" } else { "s" },
            endings.join(", ")
        );
    }

    fn to_json(&self) -> serde_json::Value {
        let loops: Vec<serde_json::Value> = self
            .loops
            .values()
            .map(|f| {
                let (run, file, report) = &f.first;
                json!({"runs": f.runs, "first_run": run, "first": report_json(file, report)})
            })
            .collect();
        let runs: Vec<serde_json::Value> = self
            .runs
            .iter()
            .zip(&self.reported)
            .map(|(r, &reported)| json!({"status": r.status, "ending": ending(r, reported), "millis": r.millis}))
            .collect();
        json!({"weave": self.weave_lines, "loops": loops, "runs": runs})
    }
}
