//! The report's tables (4.1/4.4 overall, 4.2/4.5 per version, 4.14 against
//! the all-pass baseline, 4.15 metrics of the best strategy), as data that
//! renders to Markdown and CSV.

use serde::Serialize;

use super::detect_invariants::KindBreakdown;
use super::detection::{flags_anything, ranked, versions_detected};
use super::evaluate::Evaluation;
use super::evaluate::PercentResult;
use super::matrix::FaultMatrix;
use super::metrics::{Confusion, best_percentage, fmt_percent, percentage_of_ones};
use super::summary::share;
use super::trace_reach::ArmReach;

/// A titled table of preformatted cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// File stem for the CSV (e.g. `overall`).
    pub id: String,
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// GitHub-flavoured Markdown, preceded by the title.
    pub fn to_markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let mut out = format!("### {}\n\n", self.title);
        out.push_str(&line(&self.header));
        out.push_str(&line(&vec!["---".to_string(); self.header.len()]));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    /// CSV with a header row; cells never contain commas or quotes.
    pub fn to_csv(&self) -> String {
        let mut out = self.header.join(",") + "\n";
        for row in &self.rows {
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }
}

/// Best (accuracy, percentage) of one strategy, overall or for version `v`.
pub fn best_of(eval: &Evaluation, version: Option<usize>) -> Option<(f64, u32)> {
    let points: Vec<(u32, Option<f64>)> = eval
        .points
        .iter()
        .map(|p| (p.percentage, pick(&p.per_version, &p.overall, version).accuracy()))
        .collect();
    best_percentage(&points)
}

fn pick<'a>(per_version: &'a [Confusion], overall: &'a Confusion, version: Option<usize>) -> &'a Confusion {
    version.map_or(overall, |v| &per_version[v])
}

/// All tables of a study. With no strategy, only the baseline table.
pub fn build(oracle: &FaultMatrix, evals: &[Evaluation], budget: f64) -> Vec<Table> {
    let mut tables = Vec::new();
    if !evals.is_empty() {
        tables.push(detection_table(oracle, evals));
        tables.push(version_detection_table(oracle, evals));
        tables.push(overall_table(evals));
        tables.push(per_version_table(oracle, evals));
        tables.push(curves_table(evals));
    }
    tables.push(baseline_table(oracle, evals));
    if let Some(first) = ranked(evals, budget).into_iter().find(|e| flags_anything(e)) {
        tables.push(best_metrics_table(first));
    }
    tables
}

/// Per strategy and training percentage: versions detected, flagged
/// failing runs, alarms on passing runs and on the original's unseen runs.
fn detection_table(oracle: &FaultMatrix, evals: &[Evaluation]) -> Table {
    let versions = oracle.versions.len();
    Table {
        id: "detection".into(),
        title: "Detection per strategy and training percentage (runs pooled over draws)".into(),
        header: [
            "Strategy",
            "Training %",
            "Versions detected",
            "Flagged failing runs",
            "Alarms on passing runs",
            "Alarms on the original's unseen runs",
            "Accuracy (%)",
        ]
        .map(String::from)
        .to_vec(),
        rows: evals
            .iter()
            .flat_map(|e| e.points.iter().map(move |p| detection_row(e, p, versions)))
            .collect(),
    }
}

/// Per faulty version (natural order), strategy and percentage: its
/// flagged failing runs and its alarms on passing runs (a passing run
/// flagged: the fault changed the state but not the output).
fn version_detection_table(oracle: &FaultMatrix, evals: &[Evaluation]) -> Table {
    let mut rows = Vec::new();
    for v in version_order(&oracle.versions) {
        for e in evals {
            for p in &e.points {
                let c = &p.per_version[v];
                rows.push(vec![
                    oracle.versions[v].clone(),
                    e.strategy.clone(),
                    p.percentage.to_string(),
                    share(c.tn, c.tn + c.fp),
                    share(c.fn_, c.fn_ + c.tp),
                ]);
            }
        }
    }
    Table {
        id: "version_detection".into(),
        title: "Per version: flagged failing runs and alarms on passing runs (pooled over draws)".into(),
        header: [
            "Version",
            "Strategy",
            "Training %",
            "Flagged failing runs",
            "Alarms on passing runs",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// One point's detection figures, for the detection table.
fn detection_row(e: &Evaluation, p: &PercentResult, versions: usize) -> Vec<String> {
    vec![
        e.strategy.clone(),
        p.percentage.to_string(),
        format!("{}/{versions}", versions_detected(p)),
        share(p.overall.tn, p.overall.tn + p.overall.fp),
        share(p.overall.fn_, p.overall.fn_ + p.overall.tp),
        share(p.original.fn_, p.original.tp + p.original.fn_),
        fmt_percent(p.overall.accuracy()),
    ]
}

fn overall_table(evals: &[Evaluation]) -> Table {
    Table {
        id: "overall".into(),
        title: "Overall results (Tables 4.1/4.4)".into(),
        header: vec![
            "Strategy".into(),
            "Best Accuracy (%)".into(),
            "Best Percentage".into(),
        ],
        rows: evals
            .iter()
            .map(|e| {
                let best = best_of(e, None);
                vec![
                    e.strategy.clone(),
                    fmt_percent(best.map(|b| b.0)),
                    fmt_pct_point(best),
                ]
            })
            .collect(),
    }
}

/// Versions as rows (in natural order: v2 before v10), the all-pass
/// baseline beside them, then each strategy's best accuracy and the
/// percentage reaching it: a table that stays readable at 100 versions.
fn per_version_table(oracle: &FaultMatrix, evals: &[Evaluation]) -> Table {
    let mut header = vec!["Version".to_string(), "All-pass accuracy (%)".to_string()];
    for e in evals {
        header.push(format!("{} acc (%)", e.strategy));
        header.push(format!("{} pct", e.strategy));
    }
    let rows = version_order(&oracle.versions)
        .into_iter()
        .map(|v| {
            let mut row = vec![
                oracle.versions[v].clone(),
                fmt_percent(percentage_of_ones(&oracle.cells[v])),
            ];
            for e in evals {
                let best = best_of(e, Some(v));
                row.push(fmt_percent(best.map(|b| b.0)));
                row.push(fmt_pct_point(best));
            }
            row
        })
        .collect();
    Table {
        id: "per_version".into(),
        title: "Per version results (Tables 4.2/4.5)".into(),
        header,
        rows,
    }
}

/// Indices of `names` in natural order (digit runs compare as numbers).
pub fn version_order(names: &[String]) -> Vec<usize> {
    let key = |name: &str| -> Vec<(String, u64)> {
        let mut parts = Vec::new();
        let mut rest = name;
        while !rest.is_empty() {
            let text_len = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
            let (text, tail) = rest.split_at(text_len);
            let digits_len = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
            let (digits, tail) = tail.split_at(digits_len);
            parts.push((text.to_string(), digits.parse().unwrap_or(0)));
            rest = tail;
        }
        parts
    };
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_cached_key(|&v| (key(&names[v]), names[v].clone()));
    order
}

/// The series of Figures 4.2/4.3, as shares of all runs per strategy and
/// percentage: correct predictions, failing runs not flagged, alarms on
/// passing runs.
fn curves_table(evals: &[Evaluation]) -> Table {
    let header = [
        "Strategy",
        "Training %",
        "Correct (% of runs)",
        "Missed failing runs (% of runs)",
        "Alarms on passing runs (% of runs)",
    ];
    let mut rows = Vec::new();
    for e in evals {
        for p in &e.points {
            let c = &p.overall;
            rows.push(vec![
                e.strategy.clone(),
                p.percentage.to_string(),
                fmt_percent(c.accuracy()),
                fmt_percent(c.false_positive_share()),
                fmt_percent(c.false_negative_share()),
            ]);
        }
    }
    Table {
        id: "curves".into(),
        title: "Correct predictions, missed failing runs and alarms on passing runs (Figures 4.2/4.3)".into(),
        header: header.map(String::from).to_vec(),
        rows,
    }
}

/// Per version (rows), the best accuracy of any strategy beside the
/// all-pass baseline, and overall as the last row.
fn baseline_table(oracle: &FaultMatrix, evals: &[Evaluation]) -> Table {
    let best_over_strategies = |v: Option<usize>| {
        evals
            .iter()
            .filter_map(|e| best_of(e, v).map(|b| b.0))
            .reduce(f64::max)
    };
    let mut rows: Vec<Vec<String>> = version_order(&oracle.versions)
        .into_iter()
        .map(|v| {
            vec![
                oracle.versions[v].clone(),
                fmt_percent(best_over_strategies(Some(v))),
                fmt_percent(percentage_of_ones(&oracle.cells[v])),
            ]
        })
        .collect();
    rows.push(vec![
        "overall".into(),
        fmt_percent(best_over_strategies(None)),
        fmt_percent(percentage_of_ones(&oracle.flat())),
    ]);
    Table {
        id: "baseline".into(),
        title: "Best accuracy against the all-pass baseline (Table 4.14)".into(),
        header: ["Version", "Best accuracy (%)", "All-pass accuracy (%)"]
            .map(String::from)
            .to_vec(),
        rows,
    }
}

fn best_metrics_table(best: &Evaluation) -> Table {
    let mut header = vec![String::new()];
    header.extend(best.points.iter().map(|p| p.percentage.to_string()));
    let metric = |name: &str, f: fn(&Confusion) -> Option<f64>| {
        let mut row = vec![name.to_string()];
        row.extend(best.points.iter().map(|p| fmt_percent(f(&p.overall))));
        row
    };
    Table {
        id: "best_metrics".into(),
        title: format!(
            "Metrics of the first-ranked strategy, {}, per training percentage (Table 4.15)",
            best.strategy
        ),
        header,
        rows: vec![
            metric("ACC", Confusion::accuracy),
            metric("PPV", Confusion::ppv),
            metric("NPV", Confusion::npv),
            metric("TPR", Confusion::tpr),
            metric("TNR", Confusion::tnr),
        ],
    }
}

fn fmt_pct_point(best: Option<(f64, u32)>) -> String {
    best.map_or_else(|| "-".into(), |b| b.1.to_string())
}

/// The table of a [`KindBreakdown`]: one row per kind of invariant, with
/// the failing runs it flagged, the alarms on passing runs and on the
/// original's unseen runs it raised, and the versions it caught.
pub fn kinds_table(b: &KindBreakdown) -> Table {
    Table {
        id: format!("kinds-{}", b.strategy),
        title: format!(
            "{}: violated invariants by kind at {}% training (a run counts once per kind and learned set that judged it)",
            b.strategy, b.percentage
        ),
        header: [
            "Kind",
            "Flagged failing runs",
            "Alarms on passing runs",
            "Alarms on the original's unseen runs",
            "Versions caught",
        ]
        .map(String::from)
        .to_vec(),
        rows: b
            .rows
            .iter()
            .map(|r| {
                let versions: Vec<&str> = r.versions.iter().map(String::as_str).collect();
                vec![
                    r.kind.clone(),
                    r.failing_flagged.to_string(),
                    r.passing_flagged.to_string(),
                    r.original_flagged.to_string(),
                    versions.join(" "),
                ]
            })
            .collect(),
    }
}

/// What an invariant arm's traces can see: per version, its failing runs,
/// those that crashed or timed out, and those whose traces differ from
/// the original's on the same test.
pub fn reach_table(r: &ArmReach) -> Table {
    let names: Vec<String> = r.versions.iter().map(|v| v.version.clone()).collect();
    Table {
        id: format!("reach-{}", r.strategies.first().map_or("", String::as_str)),
        title: format!(
            "{}: failing runs whose traces differ from the original's on the same test ({} of {} versions within reach; {} with a value no original run has, which {} of the original's {} runs have against the others; {} noisy variables left out)",
            r.strategies.join(", "),
            r.reachable(),
            r.versions.len(),
            r.novel(),
            r.original_novel,
            r.original_runs,
            r.unstable.len()
        ),
        header: [
            "Version",
            "Failing runs",
            "Crashed or timed out",
            "Traces differ",
            "With a value no original run has",
            "Passing runs whose traces differ",
            "Within reach",
            "Novel",
        ]
        .map(String::from)
        .to_vec(),
        rows: version_order(&names)
            .into_iter()
            .map(|i| {
                let v = &r.versions[i];
                vec![
                    v.version.clone(),
                    v.failing.to_string(),
                    v.failing_abnormal.to_string(),
                    v.failing_differ.to_string(),
                    v.failing_novel.to_string(),
                    v.passing_differ.to_string(),
                    if v.reachable() { "yes" } else { "no" }.to_string(),
                    if v.novel() { "yes" } else { "no" }.to_string(),
                ]
            })
            .collect(),
    }
}
