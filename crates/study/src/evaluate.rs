//! Learning ranges from P% of the training runs and scoring the resulting
//! range fault matrices against the oracle, per percentage and random draw.

use serde::Serialize;

use super::matrix::{FaultMatrix, Observation, predict};
use super::metrics::Confusion;
use weft_monitor::ranges::learn::{Run, learn, sample_size};

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

/// Scores one strategy. `observed[version][test]` follows the oracle's
/// layout; `training` holds the original's training runs with their ranges.
///
/// Each draw learns with [`weft_monitor::ranges::learn::learn`] (the same sampling
/// as `weft ranges learn`). Draw `d` at percentage `p` uses the same training
/// subset for every strategy (its seed depends only on the study's seed, `p`
/// and `d`, and every strategy has one training run per training test), so
/// that strategies are compared on equal training data.
pub fn evaluate(
    strategy: &str,
    oracle: &FaultMatrix,
    training: &[Run],
    observed: &[Vec<Observation>],
    percentages: &[u32],
    draws: u32,
    seed: u64,
) -> Evaluation {
    let points = percentages
        .iter()
        .map(|&pct| {
            let k = sample_size(training.len(), f64::from(pct));
            let mut per_version = vec![Confusion::default(); oracle.versions.len()];
            let mut pass_draws = vec![vec![0u32; oracle.tests.len()]; oracle.versions.len()];
            for draw in 0..draws {
                let learned = learn(training, f64::from(pct), draw_seed(seed, pct, draw));
                for (v, row) in observed.iter().enumerate() {
                    let predicted: Vec<bool> = row.iter().map(|o| predict(&learned, o)).collect();
                    for (count, &p) in pass_draws[v].iter_mut().zip(&predicted) {
                        *count += u32::from(p);
                    }
                    per_version[v].add(Confusion::compare(&oracle.cells[v], &predicted));
                }
            }
            let mut overall = Confusion::default();
            per_version.iter().for_each(|c| overall.add(*c));
            PercentResult {
                percentage: pct,
                training_runs: k,
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
