//! Scoring detectors: learn from P% of the training runs, predict a fault
//! matrix, and compare it with the oracle, per percentage and random draw.
//! [`score`] is shared by every detector; [`evaluate`] is the range
//! detector's learning and prediction. Besides the faulty versions' runs,
//! every point scores the original's runs that training did not see.

use serde::Serialize;

use super::matrix::{FaultMatrix, Observation, predict};
use super::metrics::{Confusion, percent};
use weft_monitor::ranges::RangeSet;
use weft_monitor::ranges::learn::{Run, sample, sample_size};

/// One strategy's scores at every training percentage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    pub strategy: String,
    pub points: Vec<PercentResult>,
}

/// Scores at one training percentage, pooled over the random draws.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PercentResult {
    pub percentage: u32,
    /// Training runs merged in each draw.
    pub training_runs: usize,
    /// Per faulty version, in the oracle's order.
    pub per_version: Vec<Confusion>,
    pub overall: Confusion,
    /// The original's runs that training did not see (see
    /// [`Schedule::sets`]), pooled: what a user of the correct program meets.
    pub original: OriginalRuns,
    /// `pass_draws[version][test]`: in how many draws the test was
    /// predicted to pass (the range fault matrix, summed over draws).
    pub pass_draws: Vec<Vec<u32>>,
}

/// The original's unseen runs: `tp` predicted to pass, `fn` flagged (an
/// alarm: the original is correct by definition).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OriginalRuns {
    pub tp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
}

impl OriginalRuns {
    /// Alarms on the original's unseen runs, in percent.
    pub fn alarm_rate(&self) -> Option<f64> {
        percent(self.fn_, self.tp + self.fn_)
    }
}

/// Scores one range strategy. `observed[row][test]` holds the original's
/// runs (row 0), then the faulty versions' in the oracle's order;
/// `training` holds the original's usable training runs with their ranges
/// and `training_tests[i]` the test of `training[i]`.
pub fn evaluate(
    strategy: &str,
    oracle: &FaultMatrix,
    training: &[Run],
    training_tests: &[usize],
    observed: &[Vec<Observation>],
    schedule: &Schedule,
) -> Evaluation {
    let learned: Vec<RangeSet> = schedule
        .sets(training.len())
        .iter()
        .map(|set| {
            let mut learned = RangeSet::default();
            for &i in &set.runs {
                learned.merge(&training[i].set);
            }
            learned
        })
        .collect();
    score(strategy, oracle, training_tests, schedule, |i, row, t| {
        predict(&learned[i], &observed[row][t])
    })
}

/// The training percentages, the random draws at each, and the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub percentages: Vec<u32>,
    pub draws: u32,
    pub seed: u64,
}

/// Training runs one learned set is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainingSet {
    pub percentage: u32,
    /// Indices of the training runs learned from, ascending.
    pub runs: Vec<usize>,
    /// `None` for a draw, which judges every run; for a fold of the k-fold
    /// split at 100%, the training runs held out, the only ones it judges.
    pub held_out: Option<Vec<usize>>,
}

impl Schedule {
    /// Every (percentage, draw) with the training runs it learns from, out
    /// of `n`: draw `d` at percentage `p` chooses the same subset for every
    /// strategy and detector (its seed depends only on the study's seed,
    /// `p` and `d`), so that they are compared on equal training data.
    /// Then, when 100% is scheduled, one set per fold of a k-fold split
    /// (k = the number of draws, at least 2): at 100% every training run
    /// is seen, so the original's runs are judged by what the other folds
    /// learned.
    pub fn sets(&self, n: usize) -> Vec<TrainingSet> {
        let mut out = Vec::new();
        for &pct in &self.percentages {
            for draw in 0..self.draws {
                let k = sample_size(n, f64::from(pct));
                out.push(TrainingSet {
                    percentage: pct,
                    runs: sample(n, k, draw_seed(self.seed, pct, draw)),
                    held_out: None,
                });
            }
        }
        if self.percentages.contains(&100) {
            for fold in self.folds(n) {
                out.push(TrainingSet {
                    percentage: 100,
                    runs: (0..n).filter(|i| fold.binary_search(i).is_err()).collect(),
                    held_out: Some(fold),
                });
            }
        }
        out
    }

    /// The folds of `n` training runs: seeded, disjoint, sizes within one.
    fn folds(&self, n: usize) -> Vec<Vec<usize>> {
        let k = self.draws.max(2) as usize;
        let mut rest: Vec<usize> = (0..n).collect();
        let mut folds = Vec::new();
        for f in 0..k {
            let size = rest.len() / (k - f);
            let chosen = sample(rest.len(), size, draw_seed(self.seed, 0, f as u32));
            let mut fold: Vec<usize> = chosen.iter().map(|&i| rest[i]).collect();
            fold.sort_unstable();
            rest.retain(|i| fold.binary_search(i).is_err());
            folds.push(fold);
        }
        folds
    }
}

/// Scores a detector: `passes(i, row, test)` says whether the run of `test`
/// on `row` (0: the original, `v + 1`: the oracle's faulty version `v`) is
/// predicted to pass after learning from the `i`-th of [`Schedule::sets`].
/// Only the runs a set judges are asked: a draw judges every faulty run and
/// the original's runs it did not train on (`training_tests[j]` is the test
/// of training run `j`), a fold only the original's runs it held out.
pub fn score(
    strategy: &str,
    oracle: &FaultMatrix,
    training_tests: &[usize],
    schedule: &Schedule,
    passes: impl Fn(usize, usize, usize) -> bool,
) -> Evaluation {
    let sets = schedule.sets(training_tests.len());
    let points = schedule
        .percentages
        .iter()
        .map(|&pct| {
            let mut per_version = vec![Confusion::default(); oracle.versions.len()];
            let mut pass_draws = vec![vec![0u32; oracle.tests.len()]; oracle.versions.len()];
            let mut original = OriginalRuns::default();
            for (i, set) in sets.iter().enumerate().filter(|(_, s)| s.percentage == pct) {
                for t in unseen_tests(set, training_tests, oracle.tests.len()) {
                    if passes(i, 0, t) {
                        original.tp += 1;
                    } else {
                        original.fn_ += 1;
                    }
                }
                if set.held_out.is_some() {
                    continue;
                }
                for (v, draws) in pass_draws.iter_mut().enumerate() {
                    let predicted: Vec<bool> = (0..oracle.tests.len()).map(|t| passes(i, v + 1, t)).collect();
                    for (count, &p) in draws.iter_mut().zip(&predicted) {
                        *count += u32::from(p);
                    }
                    per_version[v].add(Confusion::compare(&oracle.cells[v], &predicted));
                }
            }
            let mut overall = Confusion::default();
            per_version.iter().for_each(|c| overall.add(*c));
            PercentResult {
                percentage: pct,
                training_runs: sample_size(training_tests.len(), f64::from(pct)),
                per_version,
                overall,
                original,
                pass_draws,
            }
        })
        .collect();
    Evaluation {
        strategy: strategy.to_string(),
        points,
    }
}

/// The original's tests a set judges: a fold's held-out runs, or every
/// test but those of the runs a draw trained on.
pub fn unseen_tests(set: &TrainingSet, training_tests: &[usize], tests: usize) -> Vec<usize> {
    match &set.held_out {
        Some(fold) => fold.iter().map(|&j| training_tests[j]).collect(),
        None => {
            let mut seen = vec![false; tests];
            for &j in &set.runs {
                seen[training_tests[j]] = true;
            }
            (0..tests).filter(|&t| !seen[t]).collect()
        }
    }
}

/// The seed of draw `draw` at `pct` percent: distinct per (pct, draw), and
/// the learner's SplitMix64 spreads nearby seeds apart.
fn draw_seed(seed: u64, pct: u32, draw: u32) -> u64 {
    seed ^ (u64::from(pct) << 32) ^ u64::from(draw)
}
