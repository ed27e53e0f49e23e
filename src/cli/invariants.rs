//! `weft invariants`: learn likely invariants from traced runs, check runs
//! against them, and move traces to and from Daikon's formats. The finding
//! is in `weft_invariants` and `weft_monitor::trace`; this file parses
//! arguments and prints.
//!
//! Exit status: 0 success (for `check`: no run violated anything); 1
//! `check` found a violation; 2 bad input (an unreadable or corrupt trace,
//! a bad argument, or for `check` a run that shares no program point with
//! the training runs: another program, or its files renamed), so that a
//! broken trace is never taken for a faulty run.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use weft_invariants::{Checks, Config, Engine, KindSet, Report};
use weft_monitor::Monitor;
use weft_monitor::trace::daikon::{DTRACE_MARK, export, learn_inputs};
use weft_monitor::trace::runs::check_runs;
use weft_monitor::trace::{RunCheck, RunsCheck, Traces, UnseenPoints};

use super::files::{replace_file, replace_with};
use super::report::{self, Format, print};

/// Learn likely invariants from traces and check runs against them.
///
/// Weave aspects/invariants.lara into a program, run it with WEFT_OUT=DIR
/// (one directory per run), then `weft invariants learn DIR -o learned.json`
/// and `weft invariants check --learned learned.json RUN_DIR`.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Learn the invariants that held in every sample of the inputs and
    /// print them in Daikon's notation (`x one of { 1, 6, 9 }`,
    /// `return == orig(n) + 1`), one block per program point.
    Learn {
        /// Directories (every *.trace under them), .trace files, or Daikon
        /// .dtrace files (which may carry their declarations, or follow
        /// a .decls file given before them).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Also write the learned invariants as JSON, what `check` reads
        /// (an existing file is replaced only if it is learned invariants).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print JSON instead of Daikon's notation.
        #[arg(long)]
        json: bool,
        /// Report an invariant only if the probability that it held by
        /// chance is below 1 - LIMIT (Daikon's --conf_limit).
        #[arg(long, default_value_t = 0.99, value_parser = parse_limit)]
        conf_limit: f64,
        /// Kinds of invariant never learned, comma-separated as reports
        /// name them (default: those Daikon leaves out; `''` learns every
        /// kind).
        #[arg(long, default_value_t = KindSet::daikon_off(), value_parser = parse_kinds)]
        kinds_off: KindSet,
    },
    /// Check runs against learned invariants: print each violated
    /// invariant with its point, how many samples violated it, and the
    /// first violating values.
    Check {
        /// Learned invariants (`learn -o`).
        #[arg(long)]
        learned: PathBuf,
        /// Runs: each a directory (all *.trace under it are one run) or a
        /// .trace file.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Print JSON: one object per run.
        #[arg(long)]
        json: bool,
        /// Which points count as a finding when a run reaches them and no
        /// training run did: `off`, `inner` (points inside functions) or
        /// `all` (entries and exits too).
        #[arg(long, default_value_t = UnseenPoints::default(), value_parser = str::parse::<UnseenPoints>)]
        unseen_points: UnseenPoints,
    },
    /// Write traces as one Daikon .dtrace file (declarations inline), for
    /// Daikon itself to read: `java daikon.Daikon OUT.dtrace`.
    Export {
        /// Directories (every *.trace under them) or .trace files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The .dtrace file to write (an existing file is replaced only if
        /// weft wrote it).
        #[arg(short, long)]
        output: PathBuf,
    },
}

fn parse_kinds(s: &str) -> Result<KindSet, String> {
    KindSet::parse(s.split(',').map(str::trim).filter(|k| !k.is_empty()))
}

fn parse_limit(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(l) if (0.0..1.0).contains(&l) => Ok(l),
        _ => Err(format!("`{s}` is not a confidence limit in [0, 1)")),
    }
}

/// Runs one `weft invariants` subcommand; errors are printed here and give 2.
pub fn run(command: Command) -> anyhow::Result<i32> {
    Ok(super::bad_input_exits_2(execute(command)))
}

fn execute(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::Learn {
            inputs,
            output,
            json,
            conf_limit,
            kinds_off,
        } => {
            let report = learn_report(&inputs, conf_limit, kinds_off)?;
            if let Some(output) = output {
                replace_file(&output, &report.to_json(), "set of learned invariants", |old| {
                    serde_json::from_str::<Report>(old).is_ok()
                })?;
            }
            print(&report, Format::from_json_flag(json))?;
            Ok(0)
        }
        Command::Check {
            learned,
            runs,
            json,
            unseen_points,
        } => check_learned(&learned, &runs, json, unseen_points),
        Command::Export { inputs, output } => {
            let files = Traces::files_each(&inputs)?;
            replace_with(
                &output,
                "Daikon trace written by weft",
                |old| old.starts_with(DTRACE_MARK),
                |w| export(&files, w),
            )?;
            eprintln!("{} trace files -> {}", files.len(), output.display());
            Ok(0)
        }
    }
}

/// Learns from `inputs` (see `daikon::learn_inputs`), saying on stderr how
/// many samples it learned from and whether a trace was capped.
fn learn_report(inputs: &[PathBuf], conf_limit: f64, off: KindSet) -> anyhow::Result<Report> {
    let mut engine = Engine::new(Config {
        conf_limit,
        off,
        ..Config::default()
    });
    let fed = learn_inputs(&mut engine, inputs)?;
    if fed.capped {
        eprintln!(
            "warning: a trace reached its size cap (WEFT_TRACE_MAX_MB); later samples were not recorded"
        );
    }
    eprintln!("learned from {} samples", fed.samples);
    Ok(engine.finish())
}

/// A set of learned invariants prints as its text (`Display`) or as the
/// JSON `-o` writes.
impl report::Report for Report {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        write!(out, "{self}")
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(serde_json::to_value(self)?)
    }
}

fn check_learned(learned: &Path, runs: &[PathBuf], json: bool, unseen: UnseenPoints) -> anyhow::Result<i32> {
    let text =
        std::fs::read_to_string(learned).with_context(|| format!("cannot read {}", learned.display()))?;
    let report: Report = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not a set of learned invariants (`weft invariants learn -o`)",
            learned.display()
        )
    })?;
    let checked = check_runs(&Checks::new(report), runs, unseen)?;
    for (run, result) in &checked.runs {
        warn_unseen(run, result);
    }
    print(&checked, Format::from_json_flag(json))?;
    let foreign = checked.foreign();
    if foreign > 0 {
        bail!(
            "{foreign} of {} runs share no program point with the training runs",
            runs.len()
        );
    }
    Ok(i32::from(checked.failed() > 0))
}

/// Says on stderr how many points a run reached that no training run did.
fn warn_unseen(run: &Path, result: &RunCheck) {
    if result.unseen_points == 0 {
        return;
    }
    let shared = result.points - result.unseen_points;
    eprintln!(
        "{}: reached {} points no training run reached; shares {shared} of its {} points with them{}",
        run.display(),
        result.unseen_points,
        result.points,
        if shared == 0 {
            " (a run of another program, or its files were renamed?)"
        } else {
            ""
        }
    );
}

/// Checked runs print as each failing run's findings and a count of the
/// failing runs, or as JSON lines: one object per run.
impl report::Report for RunsCheck {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for (run, result) in &self.runs {
            write_check(out, run, result)?;
        }
        writeln!(
            out,
            "{} of {} runs violate the {} learned invariants",
            self.failed(),
            self.runs.len(),
            self.invariants
        )
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(self
            .runs
            .iter()
            .map(|(run, r)| serde_json::json!({"run": run, "samples": r.samples, "findings": r.findings}))
            .collect())
    }

    fn json_lines(&self) -> bool {
        true
    }
}

fn write_check(out: &mut dyn Write, run: &Path, result: &RunCheck) -> std::io::Result<()> {
    if result.passes() {
        return Ok(());
    }
    writeln!(out, "{}: {} findings", run.display(), result.findings.len())?;
    for f in &result.findings {
        if f.kind == weft_monitor::trace::unseen::UNSEEN_KIND {
            // A point no training run reached: no values to show.
            writeln!(out, "  {}: {}  ({} samples)", f.point, f.invariant, f.count)?;
            continue;
        }
        let witness: Vec<String> = f.witness.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        writeln!(
            out,
            "  {}: {}  ({} samples; first: {})",
            f.point,
            f.invariant,
            f.count,
            witness.join(", ")
        )?;
    }
    Ok(())
}
