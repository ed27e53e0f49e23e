//! Suppression of implied invariants. While an antecedent holds over a
//! tuple, the invariants it implies over the same tuple are neither
//! instantiated nor checked (they would print nothing new). When the last
//! antecedent of a consequent is falsified, the consequent is instantiated
//! from the antecedent's [`history`](crate::invariants::Checker::history):
//! it held on every sample the antecedent held on, and its state depends
//! only on what that history summarises, so it is exactly the state of a
//! consequent checked all along. The naive engine checks everything and the
//! printer drops a consequent while an antecedent is present, so both
//! engines print the same.
//!
//! The rules (antecedent ⇒ consequents, over the same variables):
//!
//! | antecedent | consequents |
//! |---|---|
//! | `x < y` | `x <= y`, `x != y` |
//! | `x > y` | `x >= y`, `x != y` |
//! | `x == y` | `x <= y`, `x >= y` |
//! | `x == c` (one present value) | bounds, `x != 0`, modulus, non-modulus, even, power of 2 |
//! | `a[] elements == c` | element bounds |
//! | `a[] sorted by <` | `a[] sorted by <=` |
//! | `a[] sorted by >` | `a[] sorted by >=` |
//!
//! No consequent is itself an antecedent, so there are no chains to follow.

use crate::invariants::Kind::{self, *};

/// Each antecedent with the consequents it suppresses.
pub(crate) const RULES: &[(Kind, &[Kind])] = &[
    (Less, &[LessEqual, NonEqual]),
    (Greater, &[GreaterEqual, NonEqual]),
    (Equal, &[LessEqual, GreaterEqual]),
    (
        SingleValue,
        &[
            LowerBound, UpperBound, NonZero, Modulus, NonModulus, Even, PowerOfTwo,
        ],
    ),
    (EltSingleValue, &[EltLowerBound, EltUpperBound]),
    (SortedLess, &[SortedLessEqual]),
    (SortedGreater, &[SortedGreaterEqual]),
];

/// The consequents `kind` suppresses (none if it is no antecedent).
pub(crate) fn consequents(kind: Kind) -> &'static [Kind] {
    RULES.iter().find(|(a, _)| *a == kind).map_or(&[], |(_, c)| c)
}

/// Whether `kind` is suppressed given the kinds present over its tuple.
pub(crate) fn suppressed(kind: Kind, present: impl Fn(Kind) -> bool) -> bool {
    RULES.iter().any(|(a, cs)| cs.contains(&kind) && present(*a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_consequent_is_an_antecedent() {
        for (_, cs) in RULES {
            assert!(cs.iter().all(|c| consequents(*c).is_empty()), "{cs:?}");
        }
    }

    #[test]
    fn non_equal_needs_both_strict_orders_gone() {
        assert!(suppressed(NonEqual, |k| k == Less));
        assert!(suppressed(NonEqual, |k| k == Greater));
        assert!(!suppressed(NonEqual, |k| k == Equal));
    }
}
