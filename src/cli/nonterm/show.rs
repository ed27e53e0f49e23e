//! `weft nonterm show`: print the reports of loops woven with
//! aspects/nonterm.lara. The finding is in `weft_monitor::nonterm`.
//!
//! Exit status: 0 no non-termination reported; 1 at least one report;
//! 2 bad input (an unreadable or malformed report file).

use std::io::{self, Write};
use std::path::PathBuf;

use serde_json::json;
use weft_monitor::nonterm::{Report, ReportFile, Verdict, read_all};

use crate::cli::report::{self, Format, print};

/// Prints every report in `inputs` (directories searched for *.nonterm,
/// or files), as text or JSON lines.
pub fn show(inputs: &[PathBuf], json: bool) -> anyhow::Result<i32> {
    let files = match read_all(inputs) {
        Ok(files) => Shown(files),
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(2);
        }
    };
    let format = Format::from_json_flag(json);
    print(&files, format)?;
    let count = files.count();
    if format == Format::Text {
        eprintln!("{count} report(s) in {} file(s)", files.0.len());
    }
    Ok(if count > 0 { 1 } else { 0 })
}

/// The report files read: one line per report, or one JSON object per
/// report ([`report_json`]) on a line of its own.
struct Shown(Vec<ReportFile>);

impl Shown {
    /// Every report with the file it is in, in file order.
    fn reports(&self) -> impl Iterator<Item = (&ReportFile, &Report)> {
        self.0.iter().flat_map(|f| f.reports.iter().map(move |r| (f, r)))
    }

    fn count(&self) -> usize {
        self.reports().count()
    }
}

impl report::Report for Shown {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for (file, report) in self.reports() {
            writeln!(out, "{}", describe(file, report))?;
        }
        Ok(())
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(self.reports().map(|(f, r)| report_json(f, r)).collect())
    }

    fn json_lines(&self) -> bool {
        true
    }
}

/// One report as a JSON object: the loop, the verdict (`exact`,
/// `suspected` or `src`) and the SRC, the cycle, the witness (name to
/// shown value), the process and the policy.
pub fn report_json(file: &ReportFile, report: &Report) -> serde_json::Value {
    let decl = file.loops.get(report.site);
    let witness: serde_json::Map<String, serde_json::Value> = file
        .witness(report)
        .into_iter()
        .map(|(n, v)| (n, json!(v)))
        .collect();
    json!({"file": file.unit, "line": decl.map(|d| d.line), "function": decl.map(|d| &d.function),
           "verdict": report.verdict.word(), "exact": report.verdict != Verdict::Suspected,
           "src": decl.and_then(|d| d.src.as_deref()),
           "recursion": decl.is_some_and(|d| d.recursion),
           "iteration": report.iteration, "period": report.period,
           "policy": report.policy.to_string(), "pid": file.header.pid, "witness": witness})
}

/// One report as a line: where the loop is, the verdict, the cycle and
/// the witness, the process and the policy.
pub fn describe(file: &ReportFile, report: &Report) -> String {
    let Some(decl) = file.loops.get(report.site) else {
        return format!("{}: a report of an unknown loop #{}", file.unit, report.site);
    };
    let verdict = match report.verdict {
        Verdict::Exact if decl.recursion => format!(
            "does not terminate: arguments repeated at call depth {} with period {}",
            report.iteration, report.period
        ),
        Verdict::Exact => format!(
            "does not terminate: state repeated at iteration {} with period {}",
            report.iteration, report.period
        ),
        Verdict::Suspected => format!(
            "suspected not to terminate: state repeated at iteration {} with period {}",
            report.iteration, report.period
        ),
        Verdict::Recurrence => format!(
            "does not terminate: its recurrence condition {} holds at iteration {}",
            decl.src.as_deref().unwrap_or("?"),
            report.iteration
        ),
    };
    let witness: Vec<String> = file
        .witness(report)
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    format!(
        "{}:{}: {} in {} {verdict} ({}); pid {}, policy {}",
        file.unit,
        decl.line,
        if decl.recursion { "recursion" } else { "loop" },
        decl.function,
        if witness.is_empty() {
            "no state".to_string()
        } else {
            witness.join(", ")
        },
        file.header.pid,
        report.policy
    )
}
