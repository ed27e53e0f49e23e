//! The range of one variable: its bounds, how often it was updated, and
//! whether a NaN was seen.

use std::cmp::Ordering;
use std::fmt;

/// The smallest and largest value seen, in the entry's value type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bounds {
    I64(i64, i64),
    U64(u64, u64),
    /// Never NaN; `-0.0` and `+0.0` keep their sign.
    F64(f64, f64),
}

/// One value of an entry, for reports ("the value that left the range").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    I64(i64),
    U64(u64),
    F64(f64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::I64(v) => write!(f, "{v}"),
            Value::U64(v) => write!(f, "{v}"),
            // `{:?}` keeps the sign of -0.0 and prints inf as "inf".
            Value::F64(v) => write!(f, "{v:?}"),
        }
    }
}

impl Bounds {
    /// The lower bound.
    pub fn min(&self) -> Value {
        match *self {
            Bounds::I64(lo, _) => Value::I64(lo),
            Bounds::U64(lo, _) => Value::U64(lo),
            Bounds::F64(lo, _) => Value::F64(lo),
        }
    }

    /// The upper bound.
    pub fn max(&self) -> Value {
        match *self {
            Bounds::I64(_, hi) => Value::I64(hi),
            Bounds::U64(_, hi) => Value::U64(hi),
            Bounds::F64(_, hi) => Value::F64(hi),
        }
    }

    /// The same bounds with `lo <= hi`. Racing updates from several threads
    /// can leave them swapped in a record; both are values that were seen.
    pub fn ordered(self) -> Bounds {
        match self {
            Bounds::I64(lo, hi) => Bounds::I64(lo.min(hi), lo.max(hi)),
            Bounds::U64(lo, hi) => Bounds::U64(lo.min(hi), lo.max(hi)),
            Bounds::F64(lo, hi) if fcmp(lo, hi) == Ordering::Greater => Bounds::F64(hi, lo),
            f => f,
        }
    }

    /// The smallest bounds holding both, or `None` when the types differ.
    pub fn union(self, other: Bounds) -> Option<Bounds> {
        match (self, other) {
            (Bounds::I64(a, b), Bounds::I64(c, d)) => Some(Bounds::I64(a.min(c), b.max(d))),
            (Bounds::U64(a, b), Bounds::U64(c, d)) => Some(Bounds::U64(a.min(c), b.max(d))),
            (Bounds::F64(a, b), Bounds::F64(c, d)) => Some(Bounds::F64(
                if fcmp(c, a) == Ordering::Less { c } else { a },
                if fcmp(d, b) == Ordering::Greater { d } else { b },
            )),
            _ => None,
        }
    }

    /// Whether `self` reaches below and whether it reaches above `learned`
    /// (`(min escapes, max escapes)`); `None` when the types differ.
    pub fn escapes(&self, learned: &Bounds) -> Option<(bool, bool)> {
        match (*self, *learned) {
            (Bounds::I64(a, b), Bounds::I64(c, d)) => Some((a < c, b > d)),
            (Bounds::U64(a, b), Bounds::U64(c, d)) => Some((a < c, b > d)),
            (Bounds::F64(a, b), Bounds::F64(c, d)) => {
                Some((fcmp(a, c) == Ordering::Less, fcmp(b, d) == Ordering::Greater))
            }
            _ => None,
        }
    }
}

/// Numeric order that also orders -0.0 before +0.0, so a -0.0 seen in one
/// run is kept when merged with a +0.0 from another. Bounds are never NaN.
fn fcmp(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b)
        .unwrap_or(Ordering::Equal)
        .then_with(|| a.is_sign_positive().cmp(&b.is_sign_positive()))
}

/// The range of one entry: what a record file holds per slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// Number of updates (including NaN ones). Zero: never reached.
    pub count: u64,
    /// `None` when no number was seen (never reached, or only NaN).
    pub bounds: Option<Bounds>,
    /// Whether a NaN was recorded.
    pub nan: bool,
}

impl Range {
    /// A range for an entry that was never updated.
    pub const EMPTY: Range = Range {
        count: 0,
        bounds: None,
        nan: false,
    };

    /// Whether the entry was updated at least once.
    pub fn seen(&self) -> bool {
        self.count > 0 || self.bounds.is_some() || self.nan
    }

    /// The union of two ranges of the same entry. Bounds of another type
    /// (impossible for one key) leave `self`'s bounds unchanged.
    pub fn merge(&self, other: &Range) -> Range {
        let bounds = match (self.bounds, other.bounds) {
            (Some(a), Some(b)) => Some(a.union(b).unwrap_or(a)),
            (a, b) => a.or(b),
        };
        Range {
            count: self.count.saturating_add(other.count),
            bounds,
            nan: self.nan || other.nan,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_takes_the_union() {
        let a = Range {
            count: 2,
            bounds: Some(Bounds::I64(-3, 4)),
            nan: false,
        };
        let b = Range {
            count: u64::MAX,
            bounds: Some(Bounds::I64(0, 9)),
            nan: false,
        };
        let m = a.merge(&b);
        assert_eq!(m.bounds, Some(Bounds::I64(-3, 9)));
        assert_eq!(m.count, u64::MAX);
        assert_eq!(Range::EMPTY.merge(&a), a);
    }

    #[test]
    fn negative_zero_is_kept_below_positive_zero() {
        let m = Bounds::F64(0.0, 0.0).union(Bounds::F64(-0.0, -0.0)).unwrap();
        match m {
            Bounds::F64(lo, hi) => {
                assert!(lo == 0.0 && lo.is_sign_negative());
                assert!(hi.is_sign_positive());
            }
            _ => panic!("type changed"),
        }
        assert_eq!(
            Bounds::F64(-0.0, 1.0).escapes(&Bounds::F64(0.0, 1.0)),
            Some((true, false))
        );
    }

    #[test]
    fn swapped_bounds_are_ordered_and_types_never_mix() {
        assert_eq!(Bounds::U64(9, 1).ordered(), Bounds::U64(1, 9));
        assert_eq!(Bounds::I64(1, 2).union(Bounds::U64(1, 2)), None);
        assert_eq!(Bounds::I64(1, 2).escapes(&Bounds::F64(1.0, 2.0)), None);
    }
}
