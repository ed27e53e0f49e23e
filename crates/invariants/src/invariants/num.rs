//! Integers and floats behind one interface, so that bounds, comparisons
//! and element invariants are written once.

use std::fmt::Debug;

use crate::model::Value;

/// A numeric scalar an invariant can be generic over.
pub(crate) trait Num: Copy + PartialOrd + Debug + Send + Sync + 'static {
    /// The scalar in a value of this type.
    fn scalar(v: &Value) -> Self;
    /// The elements of a sequence of this type.
    fn elems(v: &Value) -> &[Self];
    /// Back to a value, for replaying a history.
    fn value(self) -> Value;
    /// A sequence value, for replaying a history.
    fn seq(items: Vec<Self>) -> Value;
    /// The number of values from `min` to `max` inclusive, as the bound and
    /// non-zero rules count them (for floats, as if they were integers).
    fn range(min: Self, max: Self) -> f64;
    /// Zero, and one (for the canonical replays of comparisons).
    fn zero() -> Self;
    fn one() -> Self;
}

impl Num for i64 {
    fn scalar(v: &Value) -> i64 {
        match v {
            Value::Int(i) => *i,
            Value::Pointer(p) => *p as i64,
            _ => unreachable!("an integer invariant over {v:?}"),
        }
    }
    fn elems(v: &Value) -> &[i64] {
        match v {
            Value::IntSeq(s) => s,
            _ => unreachable!("an integer sequence invariant over {v:?}"),
        }
    }
    fn value(self) -> Value {
        Value::Int(self)
    }
    fn seq(items: Vec<i64>) -> Value {
        Value::IntSeq(items)
    }
    fn range(min: i64, max: i64) -> f64 {
        (max as i128 - min as i128 + 1) as f64
    }
    fn zero() -> i64 {
        0
    }
    fn one() -> i64 {
        1
    }
}

impl Num for f64 {
    fn scalar(v: &Value) -> f64 {
        match v {
            Value::Float(f) => *f,
            _ => unreachable!("a float invariant over {v:?}"),
        }
    }
    fn elems(v: &Value) -> &[f64] {
        match v {
            Value::FloatSeq(s) => s,
            _ => unreachable!("a float sequence invariant over {v:?}"),
        }
    }
    fn value(self) -> Value {
        Value::Float(self)
    }
    fn seq(items: Vec<f64>) -> Value {
        Value::FloatSeq(items)
    }
    fn range(min: f64, max: f64) -> f64 {
        max - min + 1.0
    }
    fn zero() -> f64 {
        0.0
    }
    fn one() -> f64 {
        1.0
    }
}
