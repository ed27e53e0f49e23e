//! What a reported invariant says, as data: the one form that is printed
//! (Daikon's notation), saved with the learned invariants, and checked
//! against new samples. Printing and checking read the same claim, so a
//! run is flagged exactly when it contradicts the printed text.

use serde::{Deserialize, Serialize};

use crate::model::Value;
use crate::print::{linear_text, show_value};

/// The order of a comparison or of a sorted sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

impl Order {
    /// The C operator.
    pub fn symbol(self) -> &'static str {
        match self {
            Order::Equal => "==",
            Order::NotEqual => "!=",
            Order::Less => "<",
            Order::LessEqual => "<=",
            Order::Greater => ">",
            Order::GreaterEqual => ">=",
        }
    }

    /// Whether `a` and `b` are in this order.
    pub(crate) fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Order::Equal => a == b,
            Order::NotEqual => a != b,
            Order::Less => a < b,
            Order::LessEqual => a <= b,
            Order::Greater => a > b,
            Order::GreaterEqual => a >= b,
        }
    }
}

/// One invariant's statement over its variables (`vars` of the
/// [`Invariant`](crate::Invariant) holding it, in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "claim", rename_all = "snake_case")]
pub enum Claim {
    /// `x one of { a, b, c }` or `x == a` (`p == null` for a pointer);
    /// with `elements`, every element of the sequence `a[]` is one of them.
    OneOf { elements: bool, values: Vec<Value> },
    /// `x >= c` (`lower`) or `x <= c`; with `elements`, every element.
    Bound {
        elements: bool,
        lower: bool,
        bound: Value,
    },
    /// `x != 0`, or `p != null`.
    NonZero { pointer: bool },
    /// `x == r (mod m)`.
    Modulus { modulus: u64, residue: u64 },
    /// `x != r (mod m)`.
    NonModulus { modulus: u64, residue: u64 },
    /// `x is even`.
    Even,
    /// `x is a power of 2`.
    PowerOfTwo,
    /// `a[] sorted by <=` and the like: every adjacent pair is in order.
    Sorted { order: Order },
    /// `x < y` and the like, `x == y` for equality sets.
    Compare { order: Order },
    /// `vars[dependent] == Σ a·vars[i] + constant` over integers
    /// (computed without overflow).
    Linear {
        dependent: usize,
        terms: Vec<(i64, usize)>,
        constant: i64,
    },
}

impl Claim {
    /// Daikon notation over the variables' names.
    pub fn text(&self, names: &[&str]) -> String {
        let subject = |elements: bool| {
            if elements {
                format!("{} elements", names[0])
            } else {
                names[0].to_string()
            }
        };
        match self {
            Claim::OneOf { elements, values } => {
                let shown = values.iter().map(show_value).collect();
                one_of_text(&subject(*elements), shown)
            }
            Claim::Bound {
                elements,
                lower,
                bound,
            } => {
                let op = if *lower { ">=" } else { "<=" };
                format!("{} {op} {}", subject(*elements), show_value(bound))
            }
            Claim::NonZero { pointer } => {
                format!("{} != {}", names[0], if *pointer { "null" } else { "0" })
            }
            Claim::Modulus { modulus, residue } => format!("{} == {residue} (mod {modulus})", names[0]),
            Claim::NonModulus { modulus, residue } => format!("{} != {residue} (mod {modulus})", names[0]),
            Claim::Even => format!("{} is even", names[0]),
            Claim::PowerOfTwo => format!("{} is a power of 2", names[0]),
            Claim::Sorted { order } => format!("{} sorted by {}", names[0], order.symbol()),
            Claim::Compare { order } => format!("{} {} {}", names[0], order.symbol(), names[1]),
            Claim::Linear {
                dependent,
                terms,
                constant,
            } => {
                let terms: Vec<(i128, &str)> = terms.iter().map(|&(a, i)| (a.into(), names[i])).collect();
                linear_text(names[*dependent], &terms, (*constant).into())
            }
        }
    }

    /// Whether a sample's values of the variables satisfy the claim. None
    /// of them is [`Value::Missing`]: a missing variable is not checked.
    pub fn holds(&self, vals: &[&Value]) -> bool {
        match self {
            Claim::OneOf {
                elements: false,
                values,
            } => values.iter().any(|v| v.same(vals[0])),
            Claim::OneOf {
                elements: true,
                values,
            } => elements_of(vals[0]).all(|e| values.iter().any(|v| v.same(&e))),
            Claim::Bound {
                elements,
                lower,
                bound,
            } => {
                let order = if *lower {
                    Order::GreaterEqual
                } else {
                    Order::LessEqual
                };
                let within = |v: &Value| compare(order, v, bound);
                if *elements {
                    elements_of(vals[0]).all(|e| within(&e))
                } else {
                    within(vals[0])
                }
            }
            Claim::NonZero { .. } => !is_zero(vals[0]),
            Claim::Modulus { modulus, residue } => residue_of(vals[0], *modulus) == *residue,
            Claim::NonModulus { modulus, residue } => residue_of(vals[0], *modulus) != *residue,
            Claim::Even => residue_of(vals[0], 2) == 0,
            Claim::PowerOfTwo => integer(vals[0]).is_some_and(|v| v > 0 && v & (v - 1) == 0),
            Claim::Sorted { order } => {
                let elems: Vec<Value> = elements_of(vals[0]).collect();
                elems.windows(2).all(|w| compare(*order, &w[0], &w[1]))
            }
            Claim::Compare { order } => compare(*order, vals[0], vals[1]),
            Claim::Linear {
                dependent,
                terms,
                constant,
            } => {
                let at = |i: usize| integer(vals[i]).map(i128::from);
                let sum = terms.iter().try_fold(i128::from(*constant), |acc, &(a, i)| {
                    Some(acc + i128::from(a) * at(i)?)
                });
                sum.is_some() && sum == at(*dependent)
            }
        }
    }
}

/// `x one of { ... }` over printed values, sorted numerically, or `x == v`
/// for one value.
pub(crate) fn one_of_text(subject: &str, mut shown: Vec<String>) -> String {
    let key = |s: &str| s.parse::<f64>().unwrap_or(0.0);
    shown.sort_by(|a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
    if shown.len() == 1 {
        format!("{subject} == {}", shown[0])
    } else {
        format!("{subject} one of {{ {} }}", shown.join(", "))
    }
}

/// A sequence's elements as scalar values (nothing for a scalar).
fn elements_of(v: &Value) -> Box<dyn Iterator<Item = Value> + '_> {
    match v {
        Value::IntSeq(s) => Box::new(s.iter().map(|&e| Value::Int(e))),
        Value::FloatSeq(s) => Box::new(s.iter().map(|&e| Value::Float(e))),
        _ => Box::new(std::iter::empty()),
    }
}

fn integer(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Pointer(p) => Some(*p as i64),
        _ => None,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Float(f) => *f == 0.0,
        other => integer(other) == Some(0),
    }
}

/// `v mod m` in `0..m` (an impossible residue for a non-integer).
fn residue_of(v: &Value, modulus: u64) -> u64 {
    match integer(v) {
        Some(i) if modulus > 0 => i128::from(i).rem_euclid(i128::from(modulus)) as u64,
        _ => u64::MAX,
    }
}

/// Two scalars in `order`; pointers only compare for (in)equality, and
/// values of different kinds are in no order.
fn compare(order: Order, a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => order.holds(x, y),
        (Value::Float(x), Value::Float(y)) => order.holds(x, y),
        (Value::Pointer(x), Value::Pointer(y)) => match order {
            Order::Equal | Order::NotEqual => order.holds(x, y),
            _ => false,
        },
        _ => order == Order::Equal && a.same(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(claim: &Claim, vals: &[Value]) -> bool {
        claim.holds(&vals.iter().collect::<Vec<_>>())
    }

    #[test]
    fn each_claim_holds_on_what_it_says_and_fails_otherwise() {
        let one_of = Claim::OneOf {
            elements: false,
            values: vec![Value::Int(1), Value::Int(6)],
        };
        assert!(holds(&one_of, &[Value::Int(6)]));
        assert!(!holds(&one_of, &[Value::Int(9)]));
        let bound = Claim::Bound {
            elements: true,
            lower: true,
            bound: Value::Int(0),
        };
        assert!(holds(&bound, &[Value::IntSeq(vec![0, 3])]));
        assert!(!holds(&bound, &[Value::IntSeq(vec![2, -1])]));
        let modulus = Claim::Modulus {
            modulus: 4,
            residue: 3,
        };
        assert!(holds(&modulus, &[Value::Int(-1)]));
        assert!(!holds(&modulus, &[Value::Int(5)]));
        let linear = Claim::Linear {
            dependent: 1,
            terms: vec![(2, 0)],
            constant: 3,
        };
        assert!(holds(&linear, &[Value::Int(4), Value::Int(11)]));
        assert!(!holds(&linear, &[Value::Int(4), Value::Int(12)]));
        let sorted = Claim::Sorted {
            order: Order::LessEqual,
        };
        assert!(holds(&sorted, &[Value::IntSeq(vec![1, 1, 2])]));
        assert!(!holds(&sorted, &[Value::IntSeq(vec![2, 1])]));
        let less = Claim::Compare { order: Order::Less };
        assert!(holds(&less, &[Value::Float(1.0), Value::Float(1.5)]));
        assert!(!holds(&less, &[Value::Float(2.0), Value::Float(1.5)]));
        assert!(holds(&Claim::PowerOfTwo, &[Value::Int(64)]));
        assert!(!holds(&Claim::PowerOfTwo, &[Value::Int(0)]));
        assert!(!holds(&Claim::NonZero { pointer: true }, &[Value::Pointer(0)]));
    }

    #[test]
    fn claims_survive_json() {
        let claim = Claim::Modulus {
            modulus: u64::MAX - 7,
            residue: 5,
        };
        let text = serde_json::to_string(&claim).unwrap();
        assert_eq!(serde_json::from_str::<Claim>(&text).unwrap(), claim);
    }
}
