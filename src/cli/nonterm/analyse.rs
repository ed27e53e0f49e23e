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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::json;
use weft_loops::{Loop, Semantics, Verdict, find};
use weft_smt::{Kind, Solver};

use crate::output::{Entry, EntryKind};
use crate::program::Program;

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

/// One loop's findings.
struct Found {
    file: String,
    line: usize,
    kind: &'static str,
    outside: Option<String>,
    /// Per semantics: the SRC text and whether it was stuck, or the reason.
    results: Vec<(Semantics, Verdict)>,
    millis: f64,
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
    let mut program = load(&args.files)?;
    crate::cli::tree::warn_not_understood(&mut program);
    let (files, sema) = program.with_semantics();
    let per_file: Vec<Vec<Loop>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| weft_loops::loops_in(f, sema, i))
        .collect();
    let jobs: Vec<(usize, &Loop)> = per_file
        .iter()
        .enumerate()
        .flat_map(|(i, ls)| ls.iter().map(move |l| (i, l)))
        .collect();
    let found: Vec<anyhow::Result<Found>> = jobs
        .par_iter()
        .map(|(i, l)| analyse_loop(&files[*i].path, l, &semantics, &solver, budget))
        .collect();
    let found = found.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let elapsed = started.elapsed();
    for f in &found {
        if args.json {
            println!("{}", to_json(f));
        } else {
            print_text(f);
        }
    }
    if !args.json {
        summary(&found, &semantics, elapsed);
    }
    if let Some(dir) = &args.weave {
        std::fs::create_dir_all(dir)?;
        let weave_semantics = if semantics.len() == 1 {
            semantics[0]
        } else {
            Semantics::BitVector
        };
        let mut found = found.iter();
        for (file, loops) in files.iter().zip(&per_file) {
            let mut checks = Vec::new();
            for (l, f) in loops.iter().zip(found.by_ref()) {
                let src = f.results.iter().find_map(|(s, r)| match r {
                    Ok((text, _)) if *s == weave_semantics => Some(text),
                    _ => None,
                });
                if let (Some(src), Some(l)) = (src, in_original(file, l)) {
                    checks.push((l, src.clone()));
                }
            }
            let name = file
                .path
                .file_name()
                .ok_or_else(|| anyhow::anyhow!("{}: not a file", file.path.display()))?;
            let checks: Vec<(&Loop, String)> = checks.iter().map(|(l, s)| (l, s.clone())).collect();
            let woven = weft_loops::weave_checks(&file.text, &file.path.display().to_string(), &checks);
            std::fs::write(dir.join(name), woven)?;
        }
    }
    Ok(())
}

/// The C files as `weft weave` loads them: each parsed by a front end that
/// knows the macros of the headers beside it.
fn load(paths: &[PathBuf]) -> anyhow::Result<Program> {
    let mut entries = Vec::new();
    for path in paths {
        anyhow::ensure!(path.is_file(), "{}: no such file", path.display());
        entries.push(Entry {
            source: path.clone(),
            dest: path.clone(),
            kind: EntryKind::File { weave: true },
        });
    }
    Program::load(&entries, None)
}

/// Loop `l` of `file` with its byte ranges in the original text (the front
/// end's view may differ where it repaired a macro); none when a range is
/// not the original's.
fn in_original(file: &weft_c::ParsedFile, l: &Loop) -> Option<Loop> {
    Some(Loop {
        range: file.original_range(l.range.clone())?,
        body: file.original_range(l.body.clone())?,
        ..l.clone()
    })
}

fn analyse_loop(
    file: &Path,
    l: &Loop,
    semantics: &[Semantics],
    solver: &Solver,
    budget: Duration,
) -> anyhow::Result<Found> {
    let start = Instant::now();
    let mut found = Found {
        file: file.display().to_string(),
        line: l.line,
        kind: l.kind,
        outside: None,
        results: Vec::new(),
        millis: 0.0,
    };
    match &l.fragment {
        Err(why) => found.outside = Some(why.clone()),
        Ok(fragment) => {
            for &s in semantics {
                found
                    .results
                    .push((s, find(fragment, s, &solver.with_budget(budget))?));
            }
        }
    }
    found.millis = start.elapsed().as_secs_f64() * 1000.0;
    Ok(found)
}

fn print_text(f: &Found) {
    let at = format!("{}:{}: {} loop", f.file, f.line, f.kind);
    if let Some(why) = &f.outside {
        println!("{at}: outside the integer fragment: {why}");
        return;
    }
    for (s, r) in &f.results {
        match r {
            Ok((src, method)) => {
                println!(
                    "{at}: SRC under {}: {src} [{method}] ({:.0} ms)",
                    s.name(),
                    f.millis
                );
            }
            Err(why) => println!("{at}: no SRC under {}: {why}", s.name()),
        }
    }
    if let Some(src) = weft_loops::only_overflow_ends(&f.results) {
        println!("{at}: from {src} it never ends unless a signed integer overflows (undefined behaviour)");
    }
}

fn to_json(f: &Found) -> serde_json::Value {
    let results: Vec<serde_json::Value> = f
        .results
        .iter()
        .map(|(s, r)| match r {
            Ok((src, method)) => json!({
                "semantics": s.short(), "src": src, "method": method,
                // "stuck path" alone, or with the end-of-file assumption.
                "stuck": method.starts_with(weft_loops::src::STUCK),
                "assumption": method.ends_with(weft_loops::eof::ASSUMPTION)
                    .then_some(weft_loops::eof::ASSUMPTION),
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

fn summary(found: &[Found], semantics: &[Semantics], elapsed: Duration) {
    let inside = found.iter().filter(|f| f.outside.is_none()).count();
    let mut parts = vec![format!("{} loops, {inside} in the integer fragment", found.len())];
    for s in semantics {
        let n = found
            .iter()
            .filter(|f| f.results.iter().any(|(t, r)| t == s && r.is_ok()))
            .count();
        parts.push(format!("{n} with an SRC under {}", s.name()));
    }
    parts.push(format!("{:.2} s", elapsed.as_secs_f64()));
    println!("{}", parts.join(", "));
}
