//! `weft nonterm analyse`: static recurrence conditions. For every loop of
//! the given C files, parsed as `weft weave` parses them (the macros of the
//! headers beside them understood, names resolved through the project
//! headers they include), whether it is in the integer fragment, and if so a
//! sufficient recurrence condition (SRC) under ideal integers and under
//! bit-vectors at the types' widths, each re-checked by the solver; or why
//! there is none. `--weave DIR` writes the files with `if (SRC)` checks
//! at the top of those loops' bodies.
//!
//! Exit status: 0 analysed (whatever was found); 2 unreadable input,
//! missing solver or solver error.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use weft_loops::{Found, Semantics, Survey, survey};
use weft_smt::{Kind, Solver};

use crate::cli::report::{self, Format, print};

/// Find loops that provably never end once a condition holds.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  weft nonterm analyse prog.c
  weft nonterm analyse --semantics bitvector --json src/*.c
  weft nonterm analyse --weave checked prog.c && cc checked/prog.c

Needs an SMT solver: z3 (apt-get install z3) or cvc5 on $PATH.")]
pub struct Args {
    /// The C files.
    #[arg(required = true, value_name = "FILE.c")]
    files: Vec<PathBuf>,
    /// The solver: z3 or cvc5 (default: z3 if found, else cvc5).
    #[arg(long, value_parser = ["z3", "cvc5"])]
    solver: Option<String>,
    /// Seconds each solver query may take.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    timeout: f64,
    /// Seconds one loop's analysis may take over all its queries, per
    /// semantics; a loop that spends it says so as its reason.
    #[arg(long, default_value_t = weft_loops::LOOP_BUDGET.as_secs_f64(), value_name = "S")]
    budget: f64,
    /// Integer semantics: ideal (no overflow), bitvector (wrap at the
    /// types' widths) or both.
    #[arg(long, default_value = "both", value_parser = ["ideal", "bitvector", "both"])]
    semantics: String,
    /// Print JSON: one object per loop.
    #[arg(long)]
    json: bool,
    /// Write each file to DIR with `if (SRC) { report; abort }` at the top
    /// of every loop that has an SRC: under bit-vectors (what the machine
    /// runs) unless `--semantics ideal` is given.
    #[arg(long, value_name = "DIR")]
    weave: Option<PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<i32> {
    match analyse(args) {
        Ok(()) => Ok(0),
        Err(e) => {
            eprintln!("error: {e:#}");
            Ok(2)
        }
    }
}

fn analyse(args: &Args) -> anyhow::Result<()> {
    let kind = args.solver.as_deref().and_then(Kind::parse);
    let solver = Solver::find(kind, Duration::from_secs_f64(args.timeout.max(0.001)))?;
    let semantics: Vec<Semantics> = match args.semantics.as_str() {
        "ideal" => vec![Semantics::Ideal],
        "bitvector" => vec![Semantics::BitVector],
        _ => vec![Semantics::Ideal, Semantics::BitVector],
    };
    let budget = Duration::from_secs_f64(args.budget.max(0.001));
    let started = Instant::now();
    let mut program = weft_loops::load(&args.files)?;
    crate::cli::tree::warn_not_understood(&mut program);
    let survey = survey(&mut program, &semantics, &solver, budget)?;
    let analysed = Analysed {
        survey,
        elapsed: started.elapsed(),
    };
    print(&analysed, Format::from_json_flag(args.json))?;
    if let Some(dir) = &args.weave {
        analysed.survey.write_checked(dir)?;
    }
    Ok(())
}

/// Every loop's findings and how long loading and analysing took: a
/// line per loop's result and a summary, or a JSON object per loop on a
/// line of its own.
struct Analysed {
    survey: Survey,
    elapsed: Duration,
}

impl report::Report for Analysed {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for f in &self.survey.found {
            text(f, out)?;
        }
        writeln!(out, "{}", self.summary())
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(self.survey.found.iter().map(to_json).collect())
    }

    fn json_lines(&self) -> bool {
        true
    }
}

impl Analysed {
    /// `N loops, M in the integer fragment, K with an SRC under …, T s`.
    fn summary(&self) -> String {
        let found = &self.survey.found;
        let inside = found.iter().filter(|f| f.outside.is_none()).count();
        let mut parts = vec![format!("{} loops, {inside} in the integer fragment", found.len())];
        for &s in &self.survey.semantics {
            parts.push(format!(
                "{} with an SRC under {}",
                self.survey.with_src(s),
                s.name()
            ));
        }
        parts.push(format!("{:.2} s", self.elapsed.as_secs_f64()));
        parts.join(", ")
    }
}

/// One loop's results, a line each.
fn text(f: &Found, out: &mut dyn Write) -> io::Result<()> {
    let at = format!("{}:{}: {} loop", f.file, f.line, f.kind);
    if let Some(why) = &f.outside {
        return writeln!(out, "{at}: outside the integer fragment: {why}");
    }
    for (s, r) in &f.results {
        match r {
            Ok((src, method)) => writeln!(
                out,
                "{at}: SRC under {}: {src} [{method}] ({:.0} ms)",
                s.name(),
                f.millis
            )?,
            Err(why) => writeln!(out, "{at}: no SRC under {}: {why}", s.name())?,
        }
    }
    if let Some(src) = weft_loops::only_overflow_ends(&f.results) {
        writeln!(
            out,
            "{at}: from {src} it never ends unless a signed integer overflows (undefined behaviour)"
        )?;
    }
    Ok(())
}

fn to_json(f: &Found) -> serde_json::Value {
    let results: Vec<serde_json::Value> = f
        .results
        .iter()
        .map(|(s, r)| match r {
            Ok((src, method)) => json!({
                "semantics": s.short(), "src": src, "method": method,
                // "stuck path" alone, or with the end-of-file assumption.
                "stuck": method.starts_with(weft_loops::STUCK),
                "assumption": method.ends_with(weft_loops::EOF_ASSUMPTION)
                    .then_some(weft_loops::EOF_ASSUMPTION),
            }),
            Err(why) => json!({"semantics": s.short(), "src": null, "reason": why}),
        })
        .collect();
    json!({
        "file": f.file, "line": f.line, "kind": f.kind,
        "fragment": f.outside.is_none(), "outside": f.outside,
        "results": results, "ms": f.millis,
        "overflow_only": weft_loops::only_overflow_ends(&f.results),
    })
}
