//! The one-screen summary at the top of a report: the best detector, its
//! accuracy against the all-pass baseline, and how many faulty versions
//! each strategy detects at all, whatever the number of versions.

use super::evaluate::Evaluation;
use super::matrix::FaultMatrix;
use super::metrics::{fmt_percent, percentage_of_ones};
use super::tables::{Table, best_of};

/// One strategy's line: best overall accuracy, the percentage reaching it,
/// and the versions detected there.
struct Line<'a> {
    eval: &'a Evaluation,
    best: Option<(f64, u32)>,
    detected: usize,
}

/// How many faulty versions have a failing run that the strategy predicted
/// to fail, in at least one draw, at percentage `pct`.
fn detected(eval: &Evaluation, pct: u32) -> usize {
    eval.points
        .iter()
        .find(|p| p.percentage == pct)
        .map_or(0, |p| p.per_version.iter().filter(|c| c.tn > 0).count())
}

fn lines(evals: &[Evaluation]) -> Vec<Line<'_>> {
    let mut lines: Vec<Line> = evals
        .iter()
        .map(|eval| {
            let best = best_of(eval, None);
            Line {
                eval,
                best,
                detected: best.map_or(0, |b| detected(eval, b.1)),
            }
        })
        .collect();
    // Best accuracy first; a stable sort keeps the study's order on ties.
    lines.sort_by(|a, b| {
        let acc = |l: &Line| l.best.map_or(f64::NEG_INFINITY, |b| b.0);
        acc(b).total_cmp(&acc(a))
    });
    lines
}

/// The summary's sentence (Markdown) and table (`tables/summary.csv`).
pub fn summary(oracle: &FaultMatrix, evals: &[Evaluation]) -> (String, Table) {
    let baseline = percentage_of_ones(&oracle.flat());
    let versions = oracle.versions.len();
    let lines = lines(evals);
    let gain = |best: Option<(f64, u32)>| match (best, baseline) {
        (Some((acc, _)), Some(base)) => format!("{:+.2}", acc - base),
        _ => "-".to_string(),
    };
    let sentence = match lines.first() {
        Some(Line {
            eval,
            best: Some((acc, pct)),
            detected,
        }) => format!(
            "Best detector: **{}**, {acc:.2}% accurate at {pct}% training, against {}% for predicting \
             pass everywhere ({} points); it detects {detected} of {versions} faulty versions (predicts \
             a failing run of the version to fail in at least one draw).\n",
            eval.strategy,
            fmt_percent(baseline),
            gain(Some((*acc, *pct))),
        ),
        _ => format!(
            "No detector scored: the oracle and its all-pass baseline ({}% of passing runs) only.\n",
            fmt_percent(baseline)
        ),
    };
    let rows = lines
        .iter()
        .map(|l| {
            vec![
                l.eval.strategy.clone(),
                fmt_percent(l.best.map(|b| b.0)),
                l.best.map_or("-".into(), |b| b.1.to_string()),
                gain(l.best),
                format!("{}/{versions}", l.detected),
            ]
        })
        .collect();
    let table = Table {
        id: "summary".into(),
        title: "Summary".into(),
        header: [
            "Strategy",
            "Best accuracy (%)",
            "Training %",
            "Points over all-pass",
            "Versions detected",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    };
    (sentence, table)
}
