//! Checking a run against learned ranges: every value outside them, every
//! NaN not seen in training, every variable training never reached.

use super::key::Key;
use super::range::{Range, Value};
use super::set::RangeSet;

/// What to do with a variable a run reached but training never did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unseen {
    /// Report it as a violation (the default): code that no passing run
    /// executed is new behaviour, and its learned range is empty, so no
    /// value can lie inside it.
    #[default]
    Violation,
    /// Leave it out: only variables with a learned range are judged.
    Ignore,
}

/// How a run's range escaped the learned one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Problem {
    /// The run saw this value outside the learned bounds (its minimum below
    /// them, or its maximum above them).
    Outside(Value),
    /// The run saw a NaN; training never did.
    Nan,
    /// Training never reached this variable.
    Unseen,
}

/// One violation: which variable, what happened, and its learned range
/// (`None` when training never reached it).
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub key: Key,
    pub problem: Problem,
    pub observed: Range,
    pub learned: Option<Range>,
}

/// Every violation of `learned` by `run`, in key order.
pub fn check(learned: &RangeSet, run: &RangeSet, unseen: Unseen) -> Vec<Violation> {
    let mut out = Vec::new();
    for (key, observed) in &run.ranges {
        if !observed.seen() {
            continue;
        }
        let learned_range = learned.ranges.get(key).filter(|r| r.seen());
        let mut report = |problem| {
            out.push(Violation {
                key: key.clone(),
                problem,
                observed: *observed,
                learned: learned_range.copied(),
            })
        };
        let Some(l) = learned_range else {
            if unseen == Unseen::Violation {
                report(Problem::Unseen);
            }
            continue;
        };
        if let Some(b) = observed.bounds {
            // No learned bounds (training saw only NaN): both ends escape.
            let (below, above) = match l.bounds {
                Some(lb) => b.escapes(&lb).unwrap_or((true, true)),
                None => (true, true),
            };
            if below {
                report(Problem::Outside(b.min()));
            }
            if above && (!below || b.max() != b.min()) {
                report(Problem::Outside(b.max()));
            }
        }
        if observed.nan && !l.nan {
            report(Problem::Nan);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranges::key::{Kind, ValueType};
    use crate::ranges::range::Bounds;

    fn set(entries: &[(&str, Option<Bounds>, bool)]) -> RangeSet {
        let mut s = RangeSet::default();
        for (var, bounds, nan) in entries {
            let value_type = match bounds {
                Some(Bounds::I64(..)) => ValueType::I64,
                Some(Bounds::U64(..)) => ValueType::U64,
                _ => ValueType::F64,
            };
            let key = Key {
                function: "f".into(),
                variable: var.to_string(),
                kind: Kind::Write,
                file: "a.c".into(),
                value_type,
            };
            let count = 1;
            s.add(
                key,
                Range {
                    count,
                    bounds: *bounds,
                    nan: *nan,
                },
            );
        }
        s
    }

    #[test]
    fn values_outside_are_listed_once_per_end() {
        let learned = set(&[("x", Some(Bounds::I64(0, 10)), false)]);
        let inside = set(&[("x", Some(Bounds::I64(2, 10)), false)]);
        assert!(check(&learned, &inside, Unseen::Violation).is_empty());
        let both = set(&[("x", Some(Bounds::I64(-1, 11)), false)]);
        let v = check(&learned, &both, Unseen::Violation);
        let values: Vec<_> = v.iter().map(|v| v.problem).collect();
        assert_eq!(
            values,
            vec![Problem::Outside(Value::I64(-1)), Problem::Outside(Value::I64(11))]
        );
    }

    #[test]
    fn unseen_follows_the_policy_and_nan_needs_training() {
        let learned = set(&[("d", Some(Bounds::F64(0.0, 1.0)), false)]);
        let run = set(&[
            ("d", Some(Bounds::F64(0.5, 0.5)), true),
            ("y", Some(Bounds::I64(1, 1)), false),
        ]);
        let v = check(&learned, &run, Unseen::Violation);
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].problem, v[1].problem), (Problem::Nan, Problem::Unseen));
        assert_eq!(v[1].learned, None);
        assert_eq!(check(&learned, &run, Unseen::Ignore).len(), 1);
    }
}
