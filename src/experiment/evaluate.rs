//! Learning ranges from P% of the training runs and scoring the resulting
//! range fault matrices against the oracle, per percentage and random draw.

use serde::Serialize;

use super::matrix::{FaultMatrix, Observation, predict};
use super::metrics::Confusion;
use super::records::{RangeSet, merge};

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
/// layout; `training` holds the ranges of the original's training runs.
///
/// Draw `d` at percentage `p` uses the same training subset for every
/// strategy (the generator depends only on seed, `p` and `d`), so that
/// strategies are compared on equal training data.
pub fn evaluate(
    strategy: &str,
    oracle: &FaultMatrix,
    training: &[RangeSet],
    observed: &[Vec<Observation>],
    percentages: &[u32],
    draws: u32,
    seed: u64,
) -> Evaluation {
    let points = percentages
        .iter()
        .map(|&pct| {
            let k = sample_size(pct, training.len());
            let mut per_version = vec![Confusion::default(); oracle.versions.len()];
            let mut pass_draws = vec![vec![0u32; oracle.tests.len()]; oracle.versions.len()];
            for draw in 0..draws {
                let mut learned = RangeSet::new();
                for i in sample(training.len(), k, draw_seed(seed, pct, draw)) {
                    merge(&mut learned, &training[i]);
                }
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

/// Training runs used at `pct` percent of `n`: rounded up, at least one
/// (when there is any).
pub fn sample_size(pct: u32, n: usize) -> usize {
    (n * pct as usize).div_ceil(100).clamp(n.min(1), n)
}

/// `k` distinct indices below `n`, chosen by a partial Fisher–Yates shuffle.
pub fn sample(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut rng = SplitMix64(seed);
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..k.min(n) {
        let j = i + (rng.next() % (n - i) as u64) as usize;
        idx.swap(i, j);
    }
    idx.truncate(k.min(n));
    idx
}

fn draw_seed(seed: u64, pct: u32, draw: u32) -> u64 {
    let mut rng = SplitMix64(seed ^ (u64::from(pct) << 32) ^ u64::from(draw));
    rng.next()
}

/// A tiny, stable generator: the study's results must not change when a
/// dependency changes its algorithm.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
