//! `weft parse-health`: how much of a C tree weft understands.

use crate::c::{FileHealth, Health, Sources};
use crate::cli::report::{Format, Report, print};
use rayon::prelude::*;
use std::io::{self, Write};
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
    print(
        &HealthReport {
            health: &health,
            top: args.top,
        },
        Format::from_json_flag(args.json),
    )?;
    Ok(0)
}

/// The health of a tree, with how many culprits its text lists.
struct HealthReport<'a> {
    health: &'a Health,
    top: usize,
}

impl Report for HealthReport<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write_text(self.health, self.top, out)
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(serde_json::to_value(self.health)?)
    }
}

fn write_text(h: &Health, top: usize, out: &mut dyn Write) -> io::Result<()> {
    for f in &h.per_file {
        writeln!(
            out,
            "{}: {}/{} functions understood",
            f.path.display(),
            f.functions_ok,
            f.functions
        )?;
        for r in &f.regions {
            let culprit = r
                .culprit
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            writeln!(out, "  {}:{}: {}{}", f.path.display(), r.line, r.reason, culprit)?;
        }
    }
    let pct = if h.functions == 0 {
        100.0
    } else {
        100.0 * h.functions_ok as f64 / h.functions as f64
    };
    writeln!(
        out,
        "\n{} files, {} macros learned: {}/{} function definitions understood ({pct:.2}%), {} regions not understood",
        h.files, h.macros, h.functions_ok, h.functions, h.regions
    )?;
    if !h.culprits.is_empty() {
        writeln!(
            out,
            "\nmost problematic identifiers (candidates for --macro-file):"
        )?;
        for c in h.culprits.iter().take(top) {
            writeln!(out, "  {:<24} {:>4}  e.g. {}", c.name, c.count, c.sample)?;
        }
    }
    Ok(())
}
