//! `weft ranges`: read, merge, learn, check and diff range records, and make
//! the FREQ strategies' frequency report from them. The
//! finding is in `crate::ranges`; this file parses arguments and prints.
//!
//! Exit status: 0 success; 1 `check` found a violation or `diff` found a
//! difference; 2 bad input (unreadable or malformed file, bad argument), so
//! a broken record is never mistaken for a faulty run.

use crate::ranges::check::{Problem, Unseen, Violation, check};
use crate::ranges::diff::{Change, diff};
use crate::ranges::frequency::frequency_report;
use crate::ranges::learn::{discover_runs, learn};
use crate::ranges::load::{read_path, read_paths};
use crate::ranges::{Range, RangeSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::files::replace_file;
use super::report::{Format, Report, print};

/// Read, merge, learn and check range records.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Print ranges (record files, directories of them, or range sets) as a
    /// table, merged.
    Show {
        /// Record files, directories (searched for *.ranges) or JSON range sets.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Print the merged range set as JSON instead.
        #[arg(long)]
        json: bool,
        /// Also list variables that were never reached.
        #[arg(long)]
        all: bool,
    },
    /// Merge inputs into one range set (the union of their ranges).
    Merge {
        /// Record files, directories (searched for *.ranges) or JSON range sets.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Where to write the JSON range set (an existing file is replaced
        /// only if it is a range set).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Learn ranges from a random P% of the training runs under TRAIN_DIR
    /// (each subdirectory is one run).
    Learn {
        /// Percentage of runs to merge, in (0, 100]; rounded up, at least one run.
        #[arg(long, value_parser = parse_percent)]
        percent: f64,
        /// Seed of the random choice: the same seed chooses the same runs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The training runs: one subdirectory per run, holding that run's
        /// record files.
        train_dir: PathBuf,
        /// Where to write the learned JSON range set (an existing file is
        /// replaced only if it is a range set).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Check runs against learned ranges; exit 1 when any leaves them.
    Check {
        /// The learned range set (or records to learn from).
        learned: PathBuf,
        /// Runs to check: each a record file, run directory or range set.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// What a variable reached in a run but never in training is.
        #[arg(long, value_enum, default_value_t = UnseenArg::Violation)]
        unseen: UnseenArg,
    },
    /// Show what changed from range set A to range set B; exit 1 when any.
    Diff {
        /// The range set before (or records, or a directory of them).
        a: PathBuf,
        /// The range set after.
        b: PathBuf,
    },
    /// Write the frequency report FREQ, COMBAND and COMBOR read, from the
    /// records of runs of a program woven with aspects/freq_report.lara.
    FreqReport {
        /// The counting runs: record files, directories or range sets.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Where to write the JSON report (an existing file is replaced
        /// only if it is a frequency report).
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// `--unseen` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum UnseenArg {
    /// Report it as a violation (default: training never vouched for it).
    Violation,
    /// Do not report it.
    Ignore,
}

fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(p) if p > 0.0 && p <= 100.0 => Ok(p),
        _ => Err(format!("`{s}` is not a percentage in (0, 100]")),
    }
}

/// Runs one `weft ranges` subcommand; errors are printed here and give 2.
pub fn run(command: Command) -> anyhow::Result<i32> {
    Ok(super::bad_input_exits_2(execute(command)))
}

fn execute(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::Show { inputs, json, all } => {
            let set = read_paths(&inputs)?;
            print(&Shown { set: &set, all }, Format::from_json_flag(json))?;
            Ok(0)
        }
        Command::Merge { inputs, output } => {
            let set = read_paths(&inputs)?;
            write_set(&set, &output)?;
            eprintln!("merged {} inputs, {} variables", inputs.len(), set.ranges.len());
            Ok(0)
        }
        Command::Learn {
            percent,
            seed,
            train_dir,
            output,
        } => {
            let runs = discover_runs(&train_dir)?;
            let set = learn(&runs, percent, seed);
            write_set(&set, &output)?;
            eprintln!(
                "learned from {} of {} runs ({percent}%, seed {seed}), {} variables",
                set.runs.len(),
                runs.len(),
                set.ranges.len()
            );
            Ok(0)
        }
        Command::Check {
            learned,
            runs,
            unseen,
        } => {
            let learned = read_path(&learned)?;
            let policy = match unseen {
                UnseenArg::Violation => Unseen::Violation,
                UnseenArg::Ignore => Unseen::Ignore,
            };
            let mut failed = 0;
            for run in &runs {
                let violations = check(&learned, &read_path(run)?, policy);
                if !violations.is_empty() {
                    failed += 1;
                    println!("{}: {} violations", run.display(), violations.len());
                    for v in &violations {
                        println!("  {}", violation(v));
                    }
                }
            }
            println!("{failed} of {} runs violate the learned ranges", runs.len());
            Ok(i32::from(failed > 0))
        }
        Command::Diff { a, b } => {
            let changes = diff(&read_path(&a)?, &read_path(&b)?);
            for (key, change) in &changes {
                match change {
                    Change::Added(r) => println!("+ {key} {}", range_text(r)),
                    Change::Removed(r) => println!("- {key} {}", range_text(r)),
                    Change::Changed { before, after } => {
                        println!("~ {key} {} -> {}", range_text(before), range_text(after))
                    }
                }
            }
            Ok(i32::from(!changes.is_empty()))
        }
        Command::FreqReport { runs, output } => {
            let report = frequency_report(&read_paths(&runs)?);
            let json = serde_json::to_string_pretty(&report)?;
            let is_report =
                |old: &str| serde_json::from_str::<std::collections::BTreeMap<String, u64>>(old).is_ok();
            replace_file(&output, &(json + "\n"), "frequency report", is_report)?;
            eprintln!(
                "frequency report: {} variables, {} assignments -> {}",
                report.len() - 1,
                report.get("total").copied().unwrap_or(0),
                output.display()
            );
            Ok(0)
        }
    }
}

fn write_set(set: &RangeSet, output: &Path) -> anyhow::Result<()> {
    replace_file(output, &set.to_json(), "range set", |old| {
        RangeSet::from_json(old).is_ok()
    })
}

/// `[min, max]`, plus `+NaN` when one was seen; `never reached` or `NaN only`
/// without numbers.
fn range_text(r: &Range) -> String {
    let nan = if r.nan { " +NaN" } else { "" };
    match r.bounds {
        Some(b) => format!("[{}, {}]{nan}", b.min(), b.max()),
        None if r.nan => "NaN only".to_string(),
        None => "never reached".to_string(),
    }
}

fn violation(v: &Violation) -> String {
    let learned = v.learned.as_ref().map_or("none".to_string(), range_text);
    match v.problem {
        Problem::Outside(value) => {
            format!("{}: value {value} outside learned {learned}", v.key)
        }
        Problem::Nan => format!("{}: NaN, learned {learned} without NaN", v.key),
        Problem::Unseen => format!(
            "{}: unseen in training, run range {}",
            v.key,
            range_text(&v.observed)
        ),
    }
}

/// The table printed by `show`: aligned columns, one variable per line.
/// A range set as `weft ranges show` prints it: a table of the variables
/// (with `all`, also those never written), or the set's JSON.
struct Shown<'a> {
    set: &'a RangeSet,
    all: bool,
}

impl Report for Shown<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", table(self.set, self.all))
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(self.set.json_value())
    }
}

fn table(set: &RangeSet, all: bool) -> String {
    let mut rows = vec![["function", "variable", "kind", "file", "min", "max", "count"].map(String::from)];
    for (key, r) in &set.ranges {
        if !all && !r.seen() {
            continue;
        }
        let (min, max) = match r.bounds {
            Some(b) => (b.min().to_string(), b.max().to_string()),
            None => ("-".to_string(), "-".to_string()),
        };
        let max = if r.nan { format!("{max} +NaN") } else { max };
        rows.push([
            key.function.clone(),
            key.variable.clone(),
            key.kind.to_string(),
            key.file.clone(),
            min,
            max,
            r.count.to_string(),
        ]);
    }
    let mut widths = [0; 7];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
