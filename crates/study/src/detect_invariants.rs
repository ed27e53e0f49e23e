//! The likely-invariant detector: for every (percentage, draw) of the
//! schedule, learn invariants from that subset of the original's training
//! traces, then predict that a test run fails when its trace violates one.
//!
//! Each trace is read once: a training run is fed to every engine whose
//! subset holds it (the engines learn in parallel), and each test run is
//! checked against every learned set in turn. Besides the scores, the
//! detector says which kinds of invariant flagged failing runs and which
//! raised alarms on passing runs ([`KindBreakdown`]).
//!
//! With `holdout`, each subset is also split in two halves by position;
//! invariants learned on one half are checked on the other half's runs,
//! which all pass, and every (program point, kind) that one of them
//! violated is judged not to generalise: test runs are not flagged by it.
//! Only the original's training runs decide this, never a test label.
//! With the `count` hold-out, nothing is dropped: the number of (program
//! point, kind) pairs each training run violated there sets a threshold,
//! the count that all but the alarm budget's share of them stayed within,
//! and a test run is flagged only when it violates more pairs than that
//! (checked against the whole subset's invariants, which are fewer than a
//! half's, so the threshold errs towards fewer alarms).
//!
//! The `halves` hold-out checks a test run against each half's invariants
//! instead, the very sets the training counts were taken against, and flags
//! it only when it violates more pairs than the threshold against both:
//! the count of a test run against a half is then comparable with the
//! training runs' (the whole subset's invariants include some learned
//! only from more runs than a half holds, which a test run may break where
//! no training run could). Its threshold takes the test run's own place
//! into account (the conformal rank): all but the budget's share of the
//! training runs and the test run stay within it; with fewer than 100 /
//! budget - 1 training runs no rank is that safe, and it is the largest
//! count.
//!
//! With `unseen_points`, a test run that reaches a point (of the chosen
//! kinds) that no training run of the subset reached is flagged by a
//! finding of kind `UnseenPoint`; hold-out judges those like the others (a
//! point one half reached and the other did not does not generalise).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use anyhow::Context;
use rayon::prelude::*;
use serde::Serialize;
use weft_invariants::{Checks, Config, Engine};
use weft_monitor::trace::UnseenPoints;
use weft_monitor::trace::runs::{check_traces, learn_file};

use super::evaluate::{Evaluation, Schedule, TrainingSet, score, unseen_tests};
use super::matrix::{FaultMatrix, Observation};
use super::run_records::read_traces;
use super::study::Holdout;
use weft_run::Progress;

/// Per kind of invariant, at the study's largest training percentage
/// (pooled over its draws): how many failing runs a violated invariant of
/// that kind flagged, and how many passing ones (alarms on passing runs).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindBreakdown {
    pub strategy: String,
    pub percentage: u32,
    pub draws: u32,
    pub rows: Vec<KindRow>,
}

/// One kind's line of a [`KindBreakdown`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindRow {
    pub kind: String,
    /// (failing run, draw) pairs in which the kind was violated.
    pub failing_flagged: u64,
    /// (passing run, draw) pairs in which it was: alarms on passing runs.
    pub passing_flagged: u64,
    /// The original's unseen runs (judged by the folds at 100%, by the
    /// draws below) in which a violation of the kind raised an alarm.
    pub original_flagged: u64,
    /// Faulty versions with at least one failing run it flagged.
    pub versions: BTreeSet<String>,
}

/// What checking one test run against each learned set gave: pass or not,
/// and the kinds of the invariants violated.
type Verdicts = Vec<(bool, BTreeSet<String>)>;

/// (program point, kind) pairs whose invariants did not hold from one half
/// of a subset's training runs to the other.
type Unstable = BTreeSet<(String, String)>;

/// One learned set, and what hold-out decided for it.
struct Learned {
    checks: Checks,
    rule: Rule,
}

/// How a learned set's findings flag a run.
enum Rule {
    /// Any finding not in the set of unstable pairs flags it (no hold-out:
    /// the set is empty).
    Stable(Unstable),
    /// More violated (program point, kind) pairs than this flag it.
    Over(usize),
    /// More violated pairs than this against each half's set flag it.
    OverBoth([Checks; 2], usize),
}

/// How the invariant detector judges runs: a strategy's options.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub holdout: Holdout,
    pub unseen: UnseenPoints,
    /// Daikon's `conf_limit`.
    pub confidence: f64,
    /// Alarms allowed on the original's unseen runs, in percent: the
    /// `count` hold-out's threshold lets this share of training runs over.
    pub alarm_budget: f64,
}

/// Scores the invariant detector. `training[i]` holds the original's
/// `i`-th training run's packed traces, `training_tests[i]` its test;
/// `observed[row][test]` holds the original's runs (row 0), then the faulty
/// versions' in the oracle's order.
pub fn evaluate_invariants(
    strategy: &str,
    oracle: &FaultMatrix,
    (training, training_tests): (&[Arc<[u8]>], &[usize]),
    observed: &[Vec<Observation>],
    schedule: &Schedule,
    options: Options,
) -> anyhow::Result<(Evaluation, KindBreakdown)> {
    let sets = schedule.sets(training.len());
    let learning = Progress::new(
        format!("experiment (scoring {strategy}, learning)"),
        "runs",
        training.len(),
    );
    let checks = learn_all(training, &sets, options, &learning)?;
    learning.finish();
    // Faulty runs are judged by the draws only (they come first); the
    // original's also by the folds.
    let draws = sets.iter().take_while(|s| s.held_out.is_none()).count();
    let cells: Vec<(usize, usize)> = (0..observed.len())
        .flat_map(|row| (0..observed[row].len()).map(move |t| (row, t)))
        .collect();
    let checking = Progress::new(
        format!("experiment (scoring {strategy}, checking)"),
        "runs",
        cells.len(),
    );
    let verdicts: Vec<Verdicts> = cells
        .par_iter()
        .map(|&(row, t)| {
            let judges = if row == 0 { &checks[..] } else { &checks[..draws] };
            let found = verdicts(judges, &observed[row][t], options.unseen);
            checking.step();
            found
        })
        .collect::<anyhow::Result<_>>()?;
    checking.finish();
    let at = |row: usize, t: usize| &verdicts[row * oracle.tests.len() + t];
    let evaluation = score(strategy, oracle, training_tests, schedule, |i, row, t| {
        at(row, t)[i].0
    });
    let top = schedule.percentages.last().copied().unwrap_or(100);
    let mut rows: BTreeMap<String, KindRow> = BTreeMap::new();
    for (i, set) in sets.iter().enumerate().filter(|(_, s)| s.percentage == top) {
        for t in unseen_tests(set, training_tests, oracle.tests.len()) {
            for kind in &at(0, t)[i].1 {
                kind_row(&mut rows, kind).original_flagged += 1;
            }
        }
        if set.held_out.is_some() {
            continue;
        }
        for (v, version) in oracle.versions.iter().enumerate() {
            for t in 0..oracle.tests.len() {
                for kind in &at(v + 1, t)[i].1 {
                    let row = kind_row(&mut rows, kind);
                    if oracle.cells[v][t] {
                        row.passing_flagged += 1;
                    } else {
                        row.failing_flagged += 1;
                        row.versions.insert(version.clone());
                    }
                }
            }
        }
    }
    let breakdown = KindBreakdown {
        strategy: strategy.to_string(),
        percentage: top,
        draws: schedule.draws,
        rows: rows.into_values().collect(),
    };
    Ok((evaluation, breakdown))
}

/// The breakdown's row of `kind`, made empty when it is not there yet.
fn kind_row<'a>(rows: &'a mut BTreeMap<String, KindRow>, kind: &str) -> &'a mut KindRow {
    rows.entry(kind.to_string()).or_insert_with(|| KindRow {
        kind: kind.to_string(),
        failing_flagged: 0,
        passing_flagged: 0,
        original_flagged: 0,
        versions: BTreeSet::new(),
    })
}

/// One learned set per subset: each training run's traces are read once
/// and fed to the engines whose subset holds it (with hold-out, also to
/// the engine of the subset's half that holds it).
fn learn_all(
    training: &[Arc<[u8]>],
    subsets: &[TrainingSet],
    options: Options,
    progress: &Progress,
) -> anyhow::Result<Vec<Learned>> {
    let holdout = options.holdout != Holdout::Off;
    // Engine 3i learns subset i; with hold-out, 3i+1 and 3i+2 its halves.
    let parts: Vec<Vec<usize>> = subsets
        .iter()
        .flat_map(|TrainingSet { runs: subset, .. }| {
            let half = |h: usize| subset.iter().copied().skip(h).step_by(2).collect::<Vec<_>>();
            let halves = if holdout {
                [half(0), half(1)]
            } else {
                [Vec::new(), Vec::new()]
            };
            let [a, b] = halves;
            [subset.clone(), a, b]
        })
        .collect();
    let config = Config {
        conf_limit: options.confidence,
        ..Config::default()
    };
    let mut engines: Vec<Engine> = parts.iter().map(|_| Engine::new(config)).collect();
    for (run, packed) in training.iter().enumerate() {
        progress.step();
        let traces = read_traces(packed)?;
        engines
            .par_iter_mut()
            .zip(&parts)
            .filter(|(_, part)| part.binary_search(&run).is_ok())
            .try_for_each(|(engine, _)| {
                traces.iter().try_for_each(|(file, trace)| {
                    learn_file(engine, trace).with_context(|| format!("learning from {}", file.display()))
                })
            })?;
    }
    let checks: Vec<Checks> = engines.into_par_iter().map(|e| Checks::new(e.finish())).collect();
    let mut unstable = vec![Unstable::new(); subsets.len()];
    // Per subset, the pairs each of its runs violated against the other half.
    let mut counts = vec![Vec::new(); subsets.len()];
    if holdout {
        for (run, packed) in training.iter().enumerate() {
            let traces = read_traces(packed)?;
            // A run of one half is checked against the other half's set.
            let found: Vec<(usize, Unstable)> = parts
                .par_iter()
                .enumerate()
                .filter(|(e, part)| {
                    e % 3 != 0 && !part.is_empty() && parts[sibling(*e)].binary_search(&run).is_ok()
                })
                .map(|(e, _)| {
                    let result = check_traces(&checks[e], &traces, options.unseen)?;
                    Ok((
                        e / 3,
                        result.findings.into_iter().map(|f| (f.point, f.kind)).collect(),
                    ))
                })
                .collect::<anyhow::Result<_>>()?;
            for (subset, pairs) in found {
                counts[subset].push(pairs.len());
                unstable[subset].extend(pairs);
            }
        }
    }
    let mut sets = checks.into_iter();
    let mut learned = Vec::with_capacity(subsets.len());
    for (unstable, counts) in unstable.into_iter().zip(counts) {
        let (Some(whole), Some(a), Some(b)) = (sets.next(), sets.next(), sets.next()) else {
            unreachable!("three engines per subset");
        };
        let rule = match options.holdout {
            Holdout::Count => Rule::Over(threshold(counts, options.alarm_budget)),
            Holdout::Halves => Rule::OverBoth([a, b], conformal_threshold(counts, options.alarm_budget)),
            Holdout::Pairs | Holdout::Off => Rule::Stable(unstable),
        };
        learned.push(Learned { checks: whole, rule });
    }
    Ok(learned)
}

/// The fewest violated pairs that at most `budget` percent of `counts`
/// exceed (0 for no counts: any violation flags).
fn threshold(mut counts: Vec<usize>, budget: f64) -> usize {
    counts.sort_unstable_by(|a, b| b.cmp(a));
    // Truncation: the allowance never exceeds the budget.
    let allowed = (counts.len() as f64 * budget / 100.0) as usize;
    counts.get(allowed).copied().unwrap_or(0)
}

/// The fewest violated pairs that at most `budget` percent of `counts` and
/// one more count (a test run's, exchangeable with them) exceed: the
/// `allowed` largest of `counts` may be over it, where `allowed + 1` runs
/// of the `n + 1` are within the budget; the largest count when even one
/// run over would exceed it (0 for no counts: any violation flags).
fn conformal_threshold(mut counts: Vec<usize>, budget: f64) -> usize {
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let over = ((counts.len() + 1) as f64 * budget / 100.0) as usize;
    counts.get(over.saturating_sub(1)).copied().unwrap_or(0)
}

/// The other half of the subset whose half engine `e` (3i+1 or 3i+2) learns.
fn sibling(e: usize) -> usize {
    if e % 3 == 1 { e + 1 } else { e - 1 }
}

/// A test run judged by every learned set: an abnormal run fails them all;
/// otherwise each set's rule decides, and the kinds it reports are those of
/// the findings that counted.
fn verdicts(learned: &[Learned], observed: &Observation, unseen: UnseenPoints) -> anyhow::Result<Verdicts> {
    let packed = match observed {
        Observation::Trace(packed) => packed,
        Observation::Abnormal => return Ok(vec![(false, BTreeSet::new()); learned.len()]),
        Observation::Ranges(_) => unreachable!("an invariant strategy's run was loaded as ranges"),
    };
    let traces = read_traces(packed)?;
    let pairs = |checks: &Checks| -> anyhow::Result<BTreeSet<(String, String)>> {
        let result = check_traces(checks, &traces, unseen)?;
        Ok(result.findings.into_iter().map(|f| (f.point, f.kind)).collect())
    };
    learned
        .iter()
        .map(|l| {
            if let Rule::OverBoth([a, b], most) = &l.rule {
                let (a, b) = (pairs(a)?, pairs(b)?);
                let kinds: BTreeSet<String> = if a.len() > *most && b.len() > *most {
                    a.into_iter().chain(b).map(|(_, kind)| kind).collect()
                } else {
                    BTreeSet::new()
                };
                return Ok((kinds.is_empty(), kinds));
            }
            let result = check_traces(&l.checks, &traces, unseen)?;
            let kinds: BTreeSet<String> = match &l.rule {
                Rule::Stable(unstable) => result
                    .findings
                    .into_iter()
                    .filter(|f| !unstable.contains(&(f.point.clone(), f.kind.clone())))
                    .map(|f| f.kind)
                    .collect(),
                Rule::OverBoth(..) => unreachable!("judged above"),
                Rule::Over(most) => {
                    let pairs: BTreeSet<(String, String)> =
                        result.findings.into_iter().map(|f| (f.point, f.kind)).collect();
                    if pairs.len() > *most {
                        pairs.into_iter().map(|(_, kind)| kind).collect()
                    } else {
                        BTreeSet::new()
                    }
                }
            };
            Ok((kinds.is_empty(), kinds))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{conformal_threshold, threshold};

    #[test]
    fn the_threshold_lets_at_most_the_budget_share_of_counts_over_it() {
        let counts = vec![0, 9, 1, 0, 5];
        // 1% of 5 runs allows none over: the largest count.
        assert_eq!(threshold(counts.clone(), 1.0), 9);
        // 20% allows one run over.
        assert_eq!(threshold(counts.clone(), 20.0), 5);
        // 39.9% still allows only one (never more than the budget).
        assert_eq!(threshold(counts.clone(), 39.9), 5);
        assert_eq!(threshold(counts.clone(), 40.0), 1);
        // Everything allowed over: any violation flags.
        assert_eq!(threshold(counts, 100.0), 0);
        assert_eq!(threshold(Vec::new(), 1.0), 0);
    }

    #[test]
    fn the_conformal_threshold_counts_the_test_run_among_the_training_runs() {
        // 99 counts 1..=99: with the test run, 100 runs, 1% of them is one:
        // no training count may be over the threshold, so it is the largest.
        let counts: Vec<usize> = (1..=99).collect();
        assert_eq!(conformal_threshold(counts.clone(), 1.0), 99);
        // 199 counts: 200 runs, two may be over: the test run and one count.
        let counts: Vec<usize> = (1..=199).collect();
        assert_eq!(conformal_threshold(counts.clone(), 1.0), 198);
        // The plain threshold lets one of 199 over too, but one of 150
        // as well, where the conformal one lets none.
        let counts: Vec<usize> = (1..=150).collect();
        assert_eq!(threshold(counts.clone(), 1.0), 149);
        assert_eq!(conformal_threshold(counts, 1.0), 150);
        // Too few runs for the budget: the largest count.
        assert_eq!(conformal_threshold(vec![3, 7, 5], 1.0), 7);
        assert_eq!(conformal_threshold(Vec::new(), 1.0), 0);
        // 20% of 5 + 1 runs: one may be over, the test run: the largest.
        assert_eq!(conformal_threshold(vec![0, 9, 1, 0, 5], 20.0), 9);
        // 40%: two: the test run and the largest count.
        assert_eq!(conformal_threshold(vec![0, 9, 1, 0, 5], 40.0), 5);
    }
}
