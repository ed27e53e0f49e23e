//! What changed between two range sets.

use super::key::Key;
use super::range::Range;
use super::set::RangeSet;

/// How one variable's range differs from the first set to the second.
/// Counts are not compared: a range set is about which values occur.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Reached only in the second set.
    Added(Range),
    /// Reached only in the first set.
    Removed(Range),
    /// Reached in both, with other bounds or NaN flag.
    Changed { before: Range, after: Range },
}

/// Every variable whose range differs between `a` and `b`, in key order.
pub fn diff(a: &RangeSet, b: &RangeSet) -> Vec<(Key, Change)> {
    let seen = |s: &RangeSet, k: &Key| s.ranges.get(k).copied().filter(Range::seen);
    let mut keys: Vec<&Key> = a.ranges.keys().chain(b.ranges.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|key| {
            let change = match (seen(a, key), seen(b, key)) {
                (None, None) => return None,
                (None, Some(after)) => Change::Added(after),
                (Some(before), None) => Change::Removed(before),
                (Some(before), Some(after)) => {
                    if before.bounds == after.bounds && before.nan == after.nan {
                        return None;
                    }
                    Change::Changed { before, after }
                }
            };
            Some((key.clone(), change))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranges::key::{Kind, ValueType};
    use crate::ranges::range::Bounds;

    fn one(var: &str, lo: i64, hi: i64, count: u64) -> RangeSet {
        let mut s = RangeSet::default();
        let key = Key {
            function: "f".into(),
            variable: var.into(),
            kind: Kind::Param,
            file: "a.c".into(),
            value_type: ValueType::I64,
        };
        s.add(
            key,
            Range {
                count,
                bounds: Some(Bounds::I64(lo, hi)),
                nan: false,
            },
        );
        s
    }

    #[test]
    fn reports_added_removed_and_changed_but_not_counts() {
        assert!(diff(&one("x", 1, 2, 1), &one("x", 1, 2, 9)).is_empty());
        let d = diff(&one("x", 1, 2, 1), &one("x", 0, 2, 1));
        assert!(matches!(d[0].1, Change::Changed { .. }));
        let d = diff(&one("x", 1, 2, 1), &one("y", 1, 2, 1));
        assert_eq!(d.len(), 2);
        assert!(matches!(d[0].1, Change::Removed(_)));
        assert!(matches!(d[1].1, Change::Added(_)));
    }
}
