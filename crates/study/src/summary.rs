//! The one-screen summary at the top of a report: per detector, the faulty
//! versions it detects within the alarm budget on the original's unseen
//! runs (the ranking), and its best run-level accuracy against answering
//! "pass" everywhere.

use super::detection::{best, best_within_budget, ranked, versions_detected};
use super::evaluate::Evaluation;
use super::matrix::FaultMatrix;
use super::metrics::{fmt_percent, percent, percentage_of_ones};
use super::tables::{Table, best_of};

/// The summary's sentence (Markdown) and table (`tables/summary.csv`).
pub fn summary(oracle: &FaultMatrix, evals: &[Evaluation], budget: f64) -> (String, Table) {
    let baseline = percentage_of_ones(&oracle.flat());
    let versions = oracle.versions.len();
    let gain = |best: Option<(f64, u32)>| match (best, baseline) {
        (Some((acc, _)), Some(base)) => format!("{:+.2}", acc - base),
        _ => "-".to_string(),
    };
    let accuracy = |e: &Evaluation| match best_of(e, None) {
        Some((acc, pct)) => format!(
            "its best run-level accuracy is {acc:.2}% at {pct}% training, against {}% for answering pass \
             everywhere ({} points)",
            fmt_percent(baseline),
            gain(Some((acc, pct)))
        ),
        None => "no run was scored".to_string(),
    };
    let sentence = match best(evals, budget) {
        Some((eval, p)) => format!(
            "Best detector at ≤ {budget}% alarms on the original's unseen runs: **{}**, detecting {} of \
             {versions} faulty versions at {}% training ({} alarms on the original's unseen runs, {} \
             flagged failing runs, {} alarms on passing runs); {}.\n",
            eval.strategy,
            versions_detected(p),
            p.percentage,
            share(p.original.fn_, p.original.tp + p.original.fn_),
            share(p.overall.tn, p.overall.tn + p.overall.fp),
            share(p.overall.fn_, p.overall.fn_ + p.overall.tp),
            accuracy(eval),
        ),
        None => format!(
            "No detector detects a faulty version within {budget}% alarms on the original's unseen runs \
             (all-pass accuracy {}%).\n",
            fmt_percent(baseline)
        ),
    };
    let rows = ranked(evals, budget)
        .into_iter()
        .map(|e| {
            let at = best_within_budget(e, budget);
            let acc = best_of(e, None);
            vec![
                e.strategy.clone(),
                format!("{}/{versions}", at.map_or(0, versions_detected)),
                at.map_or("-".into(), |p| p.percentage.to_string()),
                at.map_or("-".into(), |p| fmt_percent(p.original.alarm_rate())),
                fmt_percent(acc.map(|b| b.0)),
                acc.map_or("-".into(), |b| b.1.to_string()),
                gain(acc),
            ]
        })
        .collect();
    let table = Table {
        id: "summary".into(),
        title: "Summary".into(),
        header: [
            "Strategy".into(),
            format!("Versions detected at ≤ {budget}% alarms"),
            "Training %".into(),
            "Alarms on the original's unseen runs (%)".into(),
            "Best accuracy (%)".into(),
            "Training % (accuracy)".into(),
            "Points over all-pass".into(),
        ]
        .to_vec(),
        rows,
    };
    (sentence, table)
}

/// `n/d (x%)`, or `-` for 0/0.
pub fn share(n: u64, d: u64) -> String {
    match percent(n, d) {
        Some(p) => format!("{n}/{d} ({p:.2}%)"),
        None => "-".into(),
    }
}
