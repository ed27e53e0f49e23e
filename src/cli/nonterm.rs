//! `weft nonterm`: read the reports of loops woven with
//! aspects/nonterm.lara. The finding is in `weft_monitor::nonterm`; this
//! file parses arguments and prints.
//!
//! Exit status: 0 no non-termination reported; 1 at least one report;
//! 2 bad input (an unreadable or malformed report file).

use std::path::PathBuf;

use anyhow::{Context, bail};
use serde_json::json;
use weft_monitor::nonterm::record::FORMAT;
use weft_monitor::nonterm::{ReportFile, read_reports};

/// Read non-termination reports.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Print every report under the given directories (searched for
    /// *.nonterm) or files: the loop, whether its state was exact, the
    /// iteration and period of the cycle, and the witness values.
    Show {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Print JSON instead: one object per report.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `weft nonterm` subcommand.
pub fn run(command: Command) -> anyhow::Result<i32> {
    let Command::Show { inputs, json } = command;
    let files = match read_all(&inputs) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(2);
        }
    };
    let mut count = 0;
    for file in &files {
        for report in &file.reports {
            count += 1;
            let Some(decl) = file.loops.get(report.site) else {
                continue;
            };
            let witness = file.witness(report);
            if json {
                let witness: serde_json::Map<String, serde_json::Value> =
                    witness.into_iter().map(|(n, v)| (n, json!(v))).collect();
                println!(
                    "{}",
                    json!({"file": file.unit, "line": decl.line, "function": decl.function,
                           "exact": report.exact, "iteration": report.iteration, "period": report.period,
                           "policy": report.policy.to_string(), "pid": file.header.pid, "witness": witness})
                );
            } else {
                let verdict = if report.exact {
                    "does not terminate"
                } else {
                    "suspected not to terminate"
                };
                let witness: Vec<String> = witness.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                println!(
                    "{}:{}: loop in {} {verdict}: state repeated at iteration {} with period {} ({}); pid {}, policy {}",
                    file.unit,
                    decl.line,
                    decl.function,
                    report.iteration,
                    report.period,
                    if witness.is_empty() {
                        "no state".to_string()
                    } else {
                        witness.join(", ")
                    },
                    file.header.pid,
                    report.policy
                );
            }
        }
    }
    if !json {
        eprintln!("{count} report(s) in {} file(s)", files.len());
    }
    Ok(if count > 0 { 1 } else { 0 })
}

fn read_all(inputs: &[PathBuf]) -> anyhow::Result<Vec<ReportFile>> {
    let mut files = Vec::new();
    for input in inputs {
        let paths = if input.is_dir() {
            FORMAT
                .files_in(input)
                .with_context(|| format!("cannot list {}", input.display()))?
        } else if input.exists() {
            vec![input.clone()]
        } else {
            bail!("{}: no such file or directory", input.display());
        };
        for path in paths {
            files.push(read_reports(&path).map_err(anyhow::Error::msg)?);
        }
    }
    Ok(files)
}
