//! Scoring detectors: learn from P% of the training runs, predict a fault
//! matrix, and compare it with the oracle, per percentage and random draw.
//! [`score`] is shared by every detector; [`evaluate`] is the range
//! detector's learning and prediction.

use serde::Serialize;

use super::matrix::{FaultMatrix, Observation, predict};
use super::metrics::Confusion;
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
    /// `pass_draws[version][test]`: in how many draws the test was
    /// predicted to pass (the range fault matrix, summed over draws).
    pub pass_draws: Vec<Vec<u32>>,
}

/// Scores one range strategy. `observed[version][test]` follows the
/// oracle's layout; `training` holds the original's training runs with
/// their ranges.
///
/// Each draw merges the ranges of the training subset [`draw_subset`]
/// chooses (the same sampling as `weft ranges learn`).
pub fn evaluate(
    strategy: &str,
    oracle: &FaultMatrix,
    training: &[Run],
    observed: &[Vec<Observation>],
    schedule: &Schedule,
) -> Evaluation {
    score(strategy, oracle, training.len(), schedule, |_, subset| {
        let mut learned = RangeSet::default();
        for &i in subset {
            learned.merge(&training[i].set);
        }
        observed
            .iter()
            .map(|row| row.iter().map(|o| predict(&learned, o)).collect())
            .collect()
    })
}

/// The training percentages, the random draws at each, and the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub percentages: Vec<u32>,
    pub draws: u32,
    pub seed: u64,
}

impl Schedule {
    /// Every (percentage, draw) with the training runs it learns from, out
    /// of `n`: draw `d` at percentage `p` chooses the same subset for every
    /// strategy and detector (its seed depends only on the study's seed,
    /// `p` and `d`), so that they are compared on equal training data.
    pub fn subsets(&self, n: usize) -> Vec<(u32, Vec<usize>)> {
        let mut out = Vec::new();
        for &pct in &self.percentages {
            for draw in 0..self.draws {
                let k = sample_size(n, f64::from(pct));
                out.push((pct, sample(n, k, draw_seed(self.seed, pct, draw))));
            }
        }
        out
    }
}

/// Scores a detector: `predict(i, subset)` gives the predicted fault
/// matrix (`[version][test]`, `true` = pass) after learning from the
/// training runs in `subset`, the `i`-th of [`Schedule::subsets`]; it is
/// called for each of them.
pub fn score(
    strategy: &str,
    oracle: &FaultMatrix,
    training_runs: usize,
    schedule: &Schedule,
    predict: impl Fn(usize, &[usize]) -> Vec<Vec<bool>>,
) -> Evaluation {
    let subsets = schedule.subsets(training_runs);
    let points = schedule
        .percentages
        .iter()
        .map(|&pct| {
            let mut per_version = vec![Confusion::default(); oracle.versions.len()];
            let mut pass_draws = vec![vec![0u32; oracle.tests.len()]; oracle.versions.len()];
            for (i, (_, subset)) in subsets.iter().enumerate().filter(|(_, (p, _))| *p == pct) {
                for (v, predicted) in predict(i, subset).iter().enumerate() {
                    for (count, &p) in pass_draws[v].iter_mut().zip(predicted) {
                        *count += u32::from(p);
                    }
                    per_version[v].add(Confusion::compare(&oracle.cells[v], predicted));
                }
            }
            let mut overall = Confusion::default();
            per_version.iter().for_each(|c| overall.add(*c));
            PercentResult {
                percentage: pct,
                training_runs: sample_size(training_runs, f64::from(pct)),
                per_version,
                overall,
                pass_draws,
            }
        })
        .collect();
    Evaluation {
        strategy: strategy.to_string(),
        points,
    }
}

/// The seed of draw `draw` at `pct` percent: distinct per (pct, draw), and
/// the learner's SplitMix64 spreads nearby seeds apart.
fn draw_seed(seed: u64, pct: u32, draw: u32) -> u64 {
    seed ^ (u64::from(pct) << 32) ^ u64::from(draw)
}
