//! Scoring detectors: learn from P% of the training runs, predict a fault
//! matrix, and compare it with the oracle, per percentage and random draw.
//! [`score`] is shared by every detector; [`evaluate`] is the range
//! detector's learning and prediction. Besides the faulty versions' runs,
//! every point scores the original's runs that training did not see; which
//! set judges which run is [`Judged`]'s, under the study's [`Judging`].

use serde::{Deserialize, Serialize};

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
    /// Training runs merged in each set, the largest where they differ
    /// (at 100%: every run, or the folds' complements when judging
    /// unseen).
    pub training_runs: usize,
    /// The learned sets at this percentage that judge the faulty
    /// versions' runs: the draws; at 100% the whole set, or the folds
    /// under [`Judging::Unseen`].
    pub sets: usize,
    /// Per faulty version, in the oracle's order.
    pub per_version: Vec<Confusion>,
    pub overall: Confusion,
    /// The original's runs that training did not see (see
    /// [`Schedule::sets`]), pooled: what a user of the correct program meets.
    pub original: OriginalRuns,
    /// `pass_draws[version][test]`: in how many of the `sets` the run was
    /// not flagged (a set that does not judge it counts as not flagging
    /// it): a run is flagged by some set exactly when its count is below
    /// `sets`.
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

/// The training percentages, the random draws at each, the seed, and
/// which sets judge the faulty versions' runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub percentages: Vec<u32>,
    pub draws: u32,
    pub seed: u64,
    pub judging: Judging,
}

/// Which sets judge a faulty version's runs (the original's runs are
/// always judged by the sets that did not train on their test).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judging {
    /// Every run of a faulty version, by every draw, and at 100% by the
    /// set learned from every training run: the faulty versions run the
    /// tests the original trained on, as regression studies do.
    Every,
    /// The default: only by the sets that did not train on its test, like
    /// the original's: at 100% each test's runs by the fold that held it
    /// out. A test's faulty run and its original run are then judged by
    /// the same set, so detections and alarms are measured alike: on
    /// inputs the detector has not learned.
    #[default]
    Unseen,
}

/// Training runs one learned set is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainingSet {
    pub percentage: u32,
    /// Indices of the training runs learned from, ascending.
    pub runs: Vec<usize>,
    /// `None` for a draw (or the whole set at 100%); for a fold of the
    /// k-fold split at 100%, the training runs it holds out.
    pub held_out: Option<Vec<usize>>,
}

impl Schedule {
    /// Every (percentage, draw) with the training runs it learns from, out
    /// of `n`: draw `d` at percentage `p` chooses the same subset for every
    /// strategy and detector (its seed depends only on the study's seed,
    /// `p` and `d`), so that they are compared on equal training data.
    /// At 100% every draw would be the same set, learned from every run:
    /// there is one such whole set (under [`Judging::Every`], to judge the
    /// faulty versions' runs) and one set per fold of a k-fold split (k =
    /// the number of draws, at least 2), each learned from the other
    /// folds, to judge the runs the whole set saw.
    pub fn sets(&self, n: usize) -> Vec<TrainingSet> {
        let mut out = Vec::new();
        for &pct in &self.percentages {
            if pct == 100 {
                if self.judging == Judging::Every {
                    out.push(TrainingSet {
                        percentage: 100,
                        runs: (0..n).collect(),
                        held_out: None,
                    });
                }
                out.extend(self.folds(n).into_iter().map(|fold| TrainingSet {
                    percentage: 100,
                    runs: (0..n).filter(|i| fold.binary_search(i).is_err()).collect(),
                    held_out: Some(fold),
                }));
                continue;
            }
            for draw in 0..self.draws {
                let k = sample_size(n, f64::from(pct));
                out.push(TrainingSet {
                    percentage: pct,
                    runs: sample(n, k, draw_seed(self.seed, pct, draw)),
                    held_out: None,
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

/// Which runs each of [`Schedule::sets`] judges. The original's runs of
/// the tests a set did not train on (at 100%, those the folds hold out,
/// not the whole set's); a faulty version's runs as the study's
/// [`Judging`] says.
#[derive(Debug, Clone)]
pub(crate) struct Judged {
    /// `original[set][test]`: whether the set judges the original's run.
    original: Vec<Vec<bool>>,
    /// `faulty[set][test]`: whether it judges the faulty versions' runs.
    faulty: Vec<Vec<bool>>,
}

impl Judged {
    /// What `sets` judge, out of `tests`, under `judging`;
    /// `training_tests[j]` is the test of training run `j`.
    pub fn new(sets: &[TrainingSet], training_tests: &[usize], tests: usize, judging: Judging) -> Judged {
        let mut judged = Judged {
            original: Vec::new(),
            faulty: Vec::new(),
        };
        for set in sets {
            let mut unseen = vec![true; tests];
            for &j in &set.runs {
                unseen[training_tests[j]] = false;
            }
            let whole = set.percentage == 100 && set.held_out.is_none();
            let fold = set.held_out.is_some();
            let faulty = match judging {
                Judging::Every if fold => vec![false; tests],
                Judging::Every => vec![true; tests],
                Judging::Unseen => unseen.clone(),
            };
            judged
                .original
                .push(if whole { vec![false; tests] } else { unseen });
            judged.faulty.push(faulty);
        }
        judged
    }

    /// Whether set `set` judges any faulty version's run.
    pub fn judges_faulty_runs(&self, set: usize) -> bool {
        self.faulty[set].contains(&true)
    }

    /// Whether set `set` judges the run of `test` on `row` (0: the
    /// original, `v + 1`: faulty version `v`).
    pub fn judges(&self, set: usize, row: usize, test: usize) -> bool {
        if row == 0 {
            self.original[set][test]
        } else {
            self.faulty[set][test]
        }
    }
}

/// Scores a detector: `passes(i, row, test)` says whether the run of `test`
/// on `row` (0: the original, `v + 1`: the oracle's faulty version `v`) is
/// predicted to pass after learning from the `i`-th of [`Schedule::sets`].
/// Only the runs a set judges are asked (as the study's [`Judging`]
/// says; `training_tests[j]` is the test of training run `j`); the sets
/// at a percentage pool their counts.
pub fn score(
    strategy: &str,
    oracle: &FaultMatrix,
    training_tests: &[usize],
    schedule: &Schedule,
    passes: impl Fn(usize, usize, usize) -> bool,
) -> Evaluation {
    let sets = schedule.sets(training_tests.len());
    let judged = Judged::new(&sets, training_tests, oracle.tests.len(), schedule.judging);
    let points = schedule
        .percentages
        .iter()
        .map(|&pct| {
            let at_pct: Vec<usize> = (0..sets.len()).filter(|&i| sets[i].percentage == pct).collect();
            let mut per_version = vec![Confusion::default(); oracle.versions.len()];
            let judging_faulty = at_pct.iter().filter(|&&i| judged.judges_faulty_runs(i)).count();
            let mut pass_draws = vec![vec![judging_faulty as u32; oracle.tests.len()]; oracle.versions.len()];
            let mut original = OriginalRuns::default();
            for &i in &at_pct {
                for t in (0..oracle.tests.len()).filter(|&t| judged.judges(i, 0, t)) {
                    if passes(i, 0, t) {
                        original.tp += 1;
                    } else {
                        original.fn_ += 1;
                    }
                }
                let rows = per_version.iter_mut().zip(&mut pass_draws).enumerate();
                for (v, (confusion, not_flagged)) in rows {
                    for (t, count) in not_flagged.iter_mut().enumerate() {
                        if judged.judges(i, v + 1, t) {
                            let predicted = passes(i, v + 1, t);
                            *count -= u32::from(!predicted);
                            confusion.count(oracle.cells[v][t], predicted);
                        }
                    }
                }
            }
            let mut overall = Confusion::default();
            per_version.iter().for_each(|c| overall.add(*c));
            PercentResult {
                percentage: pct,
                training_runs: at_pct.iter().map(|&i| sets[i].runs.len()).max().unwrap_or(0),
                sets: judging_faulty,
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

/// The seed of draw `draw` at `pct` percent: distinct per (pct, draw), and
/// the learner's SplitMix64 spreads nearby seeds apart.
fn draw_seed(seed: u64, pct: u32, draw: u32) -> u64 {
    seed ^ (u64::from(pct) << 32) ^ u64::from(draw)
}
