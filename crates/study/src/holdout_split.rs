//! How the invariant detector's hold-out splits a training subset: which
//! runs each engine learns and which runs are checked against what it
//! learned.
//!
//! A subset always has its whole set (the one test runs are checked
//! against). The halves hold-outs add two parts, each learning one half by
//! position and checking the other half's runs; the folds hold-outs add
//! [`FOLDS`] parts, part `k` learning every run but those of fold `k`
//! (positions `k`, `k + FOLDS`, ...) and checking those: every training run
//! is held out once, against invariants learned from most of the subset
//! (cross-fitting), rather than from half of it.

use std::ops::Range;

use super::evaluate::TrainingSet;
use super::study::Holdout;

/// How many folds the folds hold-outs split a subset into.
pub(crate) const FOLDS: usize = 5;

/// A way of holding out a subset's runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    Halves = 0,
    Folds = 1,
}

impl Split {
    /// The split a hold-out mode checks its training runs by (none: it
    /// checks none).
    pub(crate) fn of(holdout: Holdout) -> Option<Split> {
        match holdout {
            Holdout::Off => None,
            Holdout::Folds | Holdout::FoldsScore => Some(Split::Folds),
            _ => Some(Split::Halves),
        }
    }
}

/// One engine's share of a subset: the runs it learns from, and the runs
/// held out against its set (none for the whole subset's set).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) learns: Vec<usize>,
    pub(crate) checks: Vec<usize>,
}

/// Where one subset's engines are in a flat list of [`Part`]s: its whole
/// set, then the parts of each [`Split`] (empty when not needed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) subset: usize,
    pub(crate) whole: usize,
    pub(crate) parts: [Range<usize>; 2],
}

/// The parts of every subset, appended to `out`, with the splits `needed`
/// (indexed by [`Split`]); one [`Layout`] per subset.
pub(crate) fn lay_out(subsets: &[TrainingSet], needed: [bool; 2], out: &mut Vec<Part>) -> Vec<Layout> {
    subsets
        .iter()
        .enumerate()
        .map(|(i, set)| {
            let whole = out.len();
            out.push(Part {
                learns: set.runs.clone(),
                checks: Vec::new(),
            });
            let mut parts = [whole + 1..whole + 1, whole + 1..whole + 1];
            for (s, ways) in [(Split::Halves, 2), (Split::Folds, FOLDS)] {
                let start = out.len();
                if needed[s as usize] {
                    out.extend((0..ways).map(|k| part(&set.runs, ways, k)));
                }
                parts[s as usize] = start..out.len();
            }
            Layout {
                subset: i,
                whole,
                parts,
            }
        })
        .collect()
}

/// The part of `runs` split `ways` ways by position that holds out the
/// `k`-th share. Two ways: learn one half, check the other; more: learn
/// all but the `k`-th fold, check it.
fn part(runs: &[usize], ways: usize, k: usize) -> Part {
    let share = |j: usize| runs.iter().copied().skip(j).step_by(ways).collect::<Vec<_>>();
    if ways == 2 {
        return Part {
            learns: share(k),
            checks: share(1 - k),
        };
    }
    Part {
        learns: runs
            .iter()
            .enumerate()
            .filter(|(p, _)| p % ways != k)
            .map(|(_, &r)| r)
            .collect(),
        checks: share(k),
    }
}

#[cfg(test)]
mod tests {
    use super::{FOLDS, Part, Split, lay_out};
    use crate::evaluate::TrainingSet;

    fn set(runs: Vec<usize>) -> TrainingSet {
        TrainingSet {
            percentage: 100,
            runs,
            held_out: None,
        }
    }

    #[test]
    fn every_run_of_a_subset_is_held_out_once_per_split() {
        let runs: Vec<usize> = (0..23).map(|r| 2 * r + 1).collect();
        let mut parts = Vec::new();
        let layout = lay_out(&[set(runs.clone())], [true, true], &mut parts);
        assert_eq!(layout.len(), 1);
        let l = &layout[0];
        assert_eq!(parts[l.whole].learns, runs);
        assert!(parts[l.whole].checks.is_empty());
        for (s, ways) in [(Split::Halves, 2), (Split::Folds, FOLDS)] {
            let these: &[Part] = &parts[l.parts[s as usize].clone()];
            assert_eq!(these.len(), ways);
            let mut held: Vec<usize> = these.iter().flat_map(|p| p.checks.clone()).collect();
            held.sort_unstable();
            assert_eq!(held, runs, "{s:?}: each run held out once");
            for p in these {
                // A part never learns a run it checks, and learns all the
                // others: the other half, or the other folds.
                assert!(p.checks.iter().all(|r| !p.learns.contains(r)));
                assert_eq!(p.learns.len() + p.checks.len(), runs.len());
            }
        }
        // Fold sizes within one of each other: 23 runs in 5 folds.
        let folds: Vec<usize> = parts[l.parts[1].clone()].iter().map(|p| p.checks.len()).collect();
        assert_eq!(folds, vec![5, 5, 5, 4, 4]);
    }

    #[test]
    fn splits_not_needed_add_no_parts() {
        let mut parts = Vec::new();
        let layout = lay_out(&[set(vec![0, 1, 2]), set(vec![3, 4])], [false, true], &mut parts);
        assert_eq!(parts.len(), 2 * (1 + FOLDS));
        assert!(
            layout
                .iter()
                .all(|l| l.parts[0].is_empty() && l.parts[1].len() == FOLDS)
        );
        assert_eq!(layout[1].whole, 1 + FOLDS);
        // Fewer runs than folds: the extra folds hold nothing out.
        let empty = parts[layout[1].parts[1].clone()]
            .iter()
            .filter(|p| p.checks.is_empty())
            .count();
        assert_eq!(empty, FOLDS - 2);
    }
}
