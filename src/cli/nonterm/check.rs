//! `weft nonterm check`: parses the arguments into
//! `weft_nonterm::Options`, runs `weft_nonterm::check` (weave
//! aspects/nonterm.lara, build, run) and prints per loop whether it was
//! monitored and whether it was reported, with the witness.
//!
//! Exit status: 0 nothing reported and every run ended; 1 a loop was
//! reported; 2 usage, weave or build error; 3 nothing reported but a run
//! timed out or did not start (a hang the monitor did not see, or no run
//! at all).

use std::io::{self, Write};
use std::path::PathBuf;

use serde_json::json;
use weft_interrupt as interrupt;
use weft_nonterm::{Ending, Options, Outcome, check};

use super::show::{describe, report_json};
use crate::cli::report::{self, Format, print};

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
monitored). So are runs killed by SIGABRT (\"aborted\": a failed assertion)
and, with --svcomp, runs whose stack overflowed (a drawn size too large).")]
pub struct Args {
    /// The program's C files.
    #[arg(required = true, value_name = "FILE.c")]
    files: Vec<PathBuf>,
    /// Define the SV-COMP `__VERIFIER_nondet_*()` functions from a seeded
    /// random stream (`__VERIFIER_assume(0)` ends a run quietly).
    #[arg(long)]
    svcomp: bool,
    /// How many runs are always made (seeds 0..N with --svcomp). Default
    /// 1, or 10 with --svcomp (each seed draws other inputs).
    #[arg(long, value_name = "N")]
    runs: Option<usize>,
    /// Seconds of runs to spend: after --runs runs, more runs (the next
    /// seeds) while the runs so far took less than half of it and no loop
    /// was reported (at most 10,000 runs); then each run that timed out
    /// without a report again, once, with the rest (at most 10 times
    /// --timeout). Default 10 with --svcomp and no --runs, else 0:
    /// exactly --runs runs.
    #[arg(long, value_name = "S")]
    budget: Option<f64>,
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
    /// The check these arguments ask for, defaults filled in.
    fn options(&self) -> Options {
        Options {
            files: self.files.clone(),
            svcomp: self.svcomp,
            runs: self.runs.unwrap_or(if self.svcomp { 10 } else { 1 }),
            budget: self.budget.unwrap_or(if self.svcomp && self.runs.is_none() {
                10.0
            } else {
                0.0
            }),
            timeout: self.timeout.unwrap_or(if self.svcomp { 1.0 } else { 10.0 }),
            policy: self.policy.clone(),
            schedule: self.schedule.clone(),
            src: self.src.clone(),
            cflags: self.cflags.clone(),
            stdin: self.stdin.clone(),
            keep: self.keep.clone(),
            program_args: self.program_args.clone(),
        }
    }
}

/// Runs the check; usage, weave and build errors are exit status 2.
pub fn run(args: &Args) -> anyhow::Result<i32> {
    let checked = check(&args.options());
    interrupt::settle();
    match checked {
        Ok(outcome) => {
            print(&outcome, Format::from_json_flag(args.json))?;
            Ok(outcome.status())
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            Ok(2)
        }
    }
}

/// The outcome as text (the weave's lines, each reported loop, the
/// runs), or as one JSON object on a line.
impl report::Report for Outcome {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for line in &self.weave_lines {
            writeln!(out, "{line}")?;
        }
        for finding in self.loops.values() {
            let (run, file, report) = &finding.first;
            writeln!(
                out,
                "{} (in {} of {} runs; first in run {run})",
                describe(file, report),
                finding.runs,
                self.runs.len()
            )?;
        }
        let counts = self.ending_counts();
        let endings: Vec<String> = counts.iter().map(|(e, n)| format!("{n} {}", e.words())).collect();
        writeln!(
            out,
            "{} loop{} reported; {} run{}: {}",
            self.loops.len(),
            if self.loops.len() == 1 { "" } else { "s" },
            self.runs.len(),
            if self.runs.len() == 1 { "" } else { "s" },
            endings.join(", ")
        )?;
        if let Some(n) = counts.get(&Ending::StackOverflow) {
            writeln!(
                out,
                "note: {n} run{} overflowed the stack: a size (alloca, recursion depth) beyond what \
                 the stack holds, most likely one the harness drew; not counted as the program's crash",
                if *n == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
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
            .zip(&self.endings)
            .map(|(r, e)| json!({"status": r.status, "ending": e.words(), "millis": r.millis}))
            .collect();
        Ok(json!({"weave": self.weave_lines, "loops": loops, "runs": runs}))
    }

    /// One object, printed compactly on one line.
    fn json_lines(&self) -> bool {
        true
    }
}
