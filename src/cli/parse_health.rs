//! `weft parse-health`: how much of a C tree weft understands.

use crate::c::{FileHealth, Health, Sources};
use rayon::prelude::*;
use std::path::PathBuf;

/// Report how much of a C tree the front end understands.
///
/// Macros are learned from every .c and .h file found (and from the headers
/// next to a file given by name); the report covers the .c files. For each
/// file: function definitions, how many are fully understood (only those
/// can be woven), and each region not understood with its line. The
/// "culprits" are the identifiers behind most failures, each with a sample
/// line: usually a macro that a one-line `#define` in a macro file fixes.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// C files or directories (walked for .c and .h files).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object (files, functions, functions_ok, regions,
    /// per_file, culprits) instead of text.
    #[arg(long)]
    json: bool,
    /// Extra macro definitions, one `#define` per line, for macros the
    /// heuristics get wrong; they override the project's own definitions.
    #[arg(long, value_name = "FILE")]
    macro_file: Option<PathBuf>,
    /// Also report on .h files.
    #[arg(long)]
    headers: bool,
    /// Culprits to list in the text report.
    #[arg(long, default_value_t = 20)]
    top: usize,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let sources = Sources::collect(&args.paths, args.headers)?;
    for path in &sources.unreadable {
        eprintln!("warning: {}: not UTF-8, skipped", path.display());
    }
    let front = sources.front_end(args.macro_file.as_deref())?;
    let parsed: Vec<_> = sources
        .parsed
        .par_iter()
        .map(|(path, text)| front.parse_passes(path, text.clone()))
        .collect();
    let files = parsed
        .iter()
        .map(|passes| (FileHealth::of_passes(passes), &passes[0]))
        .collect();
    let health = Health::new(files, front.macros().len());
    if args.json {
        println!("{}", serde_json::to_string(&health)?);
    } else {
        print_text(&health, args.top);
    }
    Ok(0)
}

fn print_text(h: &Health, top: usize) {
    for f in &h.per_file {
        println!(
            "{}: {}/{} functions understood",
            f.path.display(),
            f.functions_ok,
            f.functions
        );
        for r in &f.regions {
            let culprit = r
                .culprit
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            println!("  {}:{}: {}{}", f.path.display(), r.line, r.reason, culprit);
        }
    }
    let pct = if h.functions == 0 {
        100.0
    } else {
        100.0 * h.functions_ok as f64 / h.functions as f64
    };
    println!(
        "\n{} files, {} macros learned: {}/{} function definitions understood ({pct:.2}%), {} regions not understood",
        h.files, h.macros, h.functions_ok, h.functions, h.regions
    );
    if !h.culprits.is_empty() {
        println!("\nmost problematic identifiers (candidates for --macro-file):");
        for c in h.culprits.iter().take(top) {
            println!("  {:<24} {:>4}  e.g. {}", c.name, c.count, c.sample);
        }
    }
}
