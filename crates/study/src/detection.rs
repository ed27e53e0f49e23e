//! Versions detected at an alarm budget: what a user of a detector meets.
//! A faulty version is detected at a training percentage when one of its
//! failing runs is flagged (in at least one draw); the detection only
//! counts when the detector's alarms on the original's unseen runs stay
//! within the study's budget. Detectors are ranked by the versions they
//! detect so; one that flags nothing is never ranked first.

use super::evaluate::{Evaluation, PercentResult};
use super::tables::best_of;

/// How many faulty versions have a failing run flagged at this point.
pub fn versions_detected(point: &PercentResult) -> usize {
    point.per_version.iter().filter(|c| c.tn > 0).count()
}

/// Whether the point's alarms on the original's unseen runs are within
/// `budget` percent (no unseen run: no alarm measured, within).
pub fn within_budget(point: &PercentResult, budget: f64) -> bool {
    point.original.alarm_rate().is_none_or(|rate| rate <= budget)
}

/// The point detecting the most versions within the budget (ties: fewer
/// alarms on the original's unseen runs, then the smaller percentage);
/// `None` when no point within the budget detects a version.
pub fn best_within_budget(eval: &Evaluation, budget: f64) -> Option<&PercentResult> {
    let alarms = |p: &PercentResult| p.original.alarm_rate().unwrap_or(0.0);
    let mut best: Option<&PercentResult> = None;
    for p in eval.points.iter().filter(|p| within_budget(p, budget)) {
        let n = versions_detected(p);
        if n == 0 {
            continue;
        }
        if best.is_none_or(|b| {
            let m = versions_detected(b);
            n > m || (n == m && alarms(p) < alarms(b))
        }) {
            best = Some(p);
        }
    }
    best
}

/// The evaluations ranked: most versions detected within the budget first,
/// then fewer alarms on the original's unseen runs at that point, then the
/// better run-level accuracy; a stable sort keeps the study's order on
/// ties. Detectors detecting nothing within the budget come after those
/// that do, and a detector that flags no run at all comes last.
pub fn ranked(evals: &[Evaluation], budget: f64) -> Vec<&Evaluation> {
    let mut order: Vec<&Evaluation> = evals.iter().collect();
    let key = |e: &Evaluation| {
        let (n, rate) = best_within_budget(e, budget).map_or((0, f64::INFINITY), |p| {
            (versions_detected(p), p.original.alarm_rate().unwrap_or(0.0))
        });
        let acc = best_of(e, None).map_or(f64::NEG_INFINITY, |b| b.0);
        (flags_anything(e), n, rate, acc)
    };
    order.sort_by(|a, b| {
        let (fa, na, ra, aa) = key(a);
        let (fb, nb, rb, ab) = key(b);
        fb.cmp(&fa)
            .then(nb.cmp(&na))
            .then(ra.total_cmp(&rb))
            .then(ab.total_cmp(&aa))
    });
    order
}

/// Whether the detector flagged any run, of any version, at any point.
pub fn flags_anything(eval: &Evaluation) -> bool {
    eval.points
        .iter()
        .any(|p| p.overall.tn + p.overall.fn_ + p.original.fn_ > 0)
}

/// The best detector: the first ranked, if it detects a version within the
/// budget.
pub fn best(evals: &[Evaluation], budget: f64) -> Option<(&Evaluation, &PercentResult)> {
    let first = *ranked(evals, budget).first()?;
    best_within_budget(first, budget).map(|p| (first, p))
}
