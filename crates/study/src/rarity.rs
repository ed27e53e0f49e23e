//! Rarity weights for the `score` hold-out: a (program point, kind) pair
//! that the original's held-out training runs seldom broke says more about
//! a run that breaks it than one they often broke.
//!
//! With `n` held-out runs of which `b` broke a pair, the pair weighs
//! `ln((n + 1) / (b + 1))`: a pair no held-out run broke weighs `ln(n + 1)`,
//! one every run broke weighs nothing. A run's score is the sum of the
//! weights of the pairs it breaks. The `count` hold-out is this score with
//! every weight 1, the `pairs` hold-out with weights 0 (broken in hold-out)
//! or infinite (never broken).
//!
//! The threshold is set on the held-out runs' own scores, and a run's own
//! breaks must not lower them: each held-out run is scored with the
//! weights of the other `n - 1` runs (leave one out), `ln(n / b)` for a
//! pair it broke (with `b` counting it), exactly as a test run is scored
//! with the weights of runs it is not among.
//!
//! Held-out runs are checked against a half's invariants, a test run
//! against the whole subset's, which holds some invariants that only more
//! runs than a half holds justify: no held-out run could break those, so
//! their rarity is unknown. With `known`, only the pairs of invariants a
//! half learned weigh anything.

use std::collections::{BTreeMap, BTreeSet};

/// A (program point, kind) pair.
pub(crate) type Pair = (String, String);

/// How many held-out runs there were and how many broke each pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Rarity {
    runs: usize,
    broken: BTreeMap<Pair, usize>,
    /// The pairs hold-out could have broken (none given: all).
    known: Option<BTreeSet<Pair>>,
}

impl Rarity {
    /// Counts each held-out run's broken pairs.
    pub(crate) fn new<'a, P>(held_out: impl IntoIterator<Item = P>) -> Self
    where
        P: IntoIterator<Item = &'a Pair>,
    {
        let mut rarity = Rarity::default();
        for pairs in held_out {
            rarity.runs += 1;
            for pair in pairs {
                *rarity.broken.entry(pair.clone()).or_default() += 1;
            }
        }
        rarity
    }

    /// Weighs only the pairs of `known`.
    pub(crate) fn known(self, known: BTreeSet<Pair>) -> Self {
        Rarity {
            known: Some(known),
            ..self
        }
    }

    /// The score of a run that breaks `pairs` and was not held out.
    pub(crate) fn score<'a>(&self, pairs: impl IntoIterator<Item = &'a Pair>) -> f64 {
        let n = self.runs as f64;
        pairs
            .into_iter()
            .filter(|p| self.known.as_ref().is_none_or(|k| k.contains(*p)))
            .map(|p| {
                let b = self.broken.get(p).copied().unwrap_or(0) as f64;
                ((n + 1.0) / (b + 1.0)).ln()
            })
            .sum()
    }

    /// The score of a held-out run that broke `pairs` (all counted in
    /// `self`), weighed by the other held-out runs only.
    pub(crate) fn left_out_score<'a>(&self, pairs: impl IntoIterator<Item = &'a Pair>) -> f64 {
        let n = self.runs as f64;
        pairs
            .into_iter()
            .map(|p| {
                let b = self.broken.get(p).copied().unwrap_or(1).max(1) as f64;
                (n / b).ln()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::{Pair, Rarity};

    fn pair(point: &str, kind: &str) -> Pair {
        (point.to_string(), kind.to_string())
    }

    #[test]
    fn a_pair_weighs_the_log_of_how_rarely_held_out_runs_broke_it() {
        let (a, b, c) = (
            pair("f:::ENTER", "OneOf"),
            pair("f:::EXIT", "LowerBound"),
            pair("g:::ENTER", "NonZero"),
        );
        // Four held-out runs: `a` broken by all, `b` by one, `c` by none.
        let runs = [
            vec![a.clone(), b.clone()],
            vec![a.clone()],
            vec![a.clone()],
            vec![a.clone()],
        ];
        let rarity = Rarity::new(&runs);
        assert_eq!(rarity.score([&a]), 0.0);
        assert!((rarity.score([&b]) - (5.0f64 / 2.0).ln()).abs() < 1e-12);
        assert!((rarity.score([&c]) - 5.0f64.ln()).abs() < 1e-12);
        assert!((rarity.score([&a, &b, &c]) - (2.5f64.ln() + 5.0f64.ln())).abs() < 1e-12);
        assert_eq!(rarity.score([]), 0.0);
        // Left out: the first run's `b` is broken by none of the other
        // three: ln(4 / 1); `a` by all three others: ln(4 / 4) = 0.
        assert!((rarity.left_out_score(&runs[0]) - 4.0f64.ln()).abs() < 1e-12);
        assert_eq!(rarity.left_out_score(&runs[1]), 0.0);
    }

    #[test]
    fn pairs_no_half_learned_weigh_nothing_when_known_is_given() {
        let (a, b) = (pair("f:::ENTER", "OneOf"), pair("f:::ENTER", "LinearBinary"));
        let runs = [vec![a.clone()], vec![]];
        let rarity = Rarity::new(&runs).known([a.clone()].into());
        // `a`: ln(3 / 2); `b`, which no half learned: nothing.
        assert!((rarity.score([&a, &b]) - 1.5f64.ln()).abs() < 1e-12);
        assert!((Rarity::new(&runs).score([&b]) - 3.0f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn no_held_out_runs_weigh_nothing() {
        let rarity = Rarity::new(Vec::<Vec<Pair>>::new().iter());
        assert_eq!(rarity.score([&pair("f:::ENTER", "OneOf")]), 0.0);
    }
}
