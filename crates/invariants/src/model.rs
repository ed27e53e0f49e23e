//! What the engine observes: program points, their variables and the values
//! a sample gives them.

use serde::{Deserialize, Serialize};

/// How a variable is represented, which decides the invariants it can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rep {
    /// A signed integer (C integer types, booleans, characters).
    Int,
    /// A floating-point number.
    Float,
    /// An address: only null / non-null and equality mean anything.
    Pointer,
    /// A string.
    Str,
    /// A sequence of integers (an array's contents).
    IntSeq,
    /// A sequence of floating-point numbers.
    FloatSeq,
}

impl Rep {
    /// Integer and floating-point scalars: the variables of the order and
    /// linear invariants.
    pub fn is_numeric(self) -> bool {
        matches!(self, Rep::Int | Rep::Float)
    }

    /// Sequences, which get a derived `size(a[])` variable.
    pub fn is_sequence(self) -> bool {
        matches!(self, Rep::IntSeq | Rep::FloatSeq)
    }
}

/// One variable's value in one sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A floating-point number (in JSON, non-finite ones are strings).
    Float(#[serde(with = "crate::float_json::one")] f64),
    /// An address; 0 is null.
    Pointer(u64),
    /// A string.
    Str(String),
    /// A sequence of integers.
    IntSeq(Vec<i64>),
    /// A sequence of floating-point numbers.
    FloatSeq(#[serde(with = "crate::float_json::seq")] Vec<f64>),
    /// Not available in this sample (Daikon's "nonsensical", modified bit 2):
    /// uninitialised or freed memory, a field behind a null pointer.
    /// Invariants over a variable only see the samples where it is present.
    Missing,
}

impl Value {
    /// The representation this value has, `None` for [`Value::Missing`].
    pub fn rep(&self) -> Option<Rep> {
        Some(match self {
            Value::Int(_) => Rep::Int,
            Value::Float(_) => Rep::Float,
            Value::Pointer(_) => Rep::Pointer,
            Value::Str(_) => Rep::Str,
            Value::IntSeq(_) => Rep::IntSeq,
            Value::FloatSeq(_) => Rep::FloatSeq,
            Value::Missing => return None,
        })
    }

    /// Whether the value is [`Value::Missing`].
    pub fn is_missing(&self) -> bool {
        matches!(self, Value::Missing)
    }

    /// Identity of values, as equality sets and constants need it: floats
    /// are compared by their bits, so that NaN is the same as itself and a
    /// variable holding NaN can still be a constant; `Missing` is the same
    /// as `Missing`.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::FloatSeq(a), Value::FloatSeq(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            _ => self == other,
        }
    }

    /// The length of a sequence, as the derived `size(a[])` variable sees it.
    pub fn seq_len(&self) -> Option<usize> {
        match self {
            Value::IntSeq(v) => Some(v.len()),
            Value::FloatSeq(v) => Some(v.len()),
            _ => None,
        }
    }
}

/// A variable of a program point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarDecl {
    /// The name as printed: `x`, `p->next`, `orig(n)`, `a[]`, `return`.
    pub name: String,
    /// Its representation; every non-missing value must have it.
    pub rep: Rep,
    /// Abstract type: two variables are related only when their numbers are
    /// equal; `None` is comparable with everything of a compatible rep.
    pub comparability: Option<u32>,
}

impl VarDecl {
    /// A variable comparable with everything of its representation.
    pub fn new(name: impl Into<String>, rep: Rep) -> VarDecl {
        VarDecl {
            name: name.into(),
            rep,
            comparability: None,
        }
    }

    /// The same variable with a comparability number.
    pub fn comparable(mut self, key: u32) -> VarDecl {
        self.comparability = Some(key);
        self
    }
}

/// Where a program point sits in a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PointKind {
    /// Function entry (`:::ENTER`).
    Enter,
    /// Function exit: `:::EXIT<n>` for one return statement, plain
    /// `:::EXIT` for the aggregate of all of them.
    Exit,
    /// Any other point (`:::POINT`, loop heads, ...).
    Point,
}

/// A program point and the variables each of its samples gives values to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointDecl {
    /// Daikon-style name, e.g. `f(int, int):::ENTER`, `f(int,int):::EXIT12`.
    pub name: String,
    /// The function the point belongs to; exits of one function feed its
    /// aggregate exit.
    pub function: String,
    /// Entry, exit or other.
    pub kind: PointKind,
    /// The variables, in the order samples give their values.
    pub vars: Vec<VarDecl>,
}

impl PointDecl {
    /// The exit number of a `:::EXIT<n>` point, `None` for anything else
    /// (including the aggregate `:::EXIT`).
    pub fn exit_number(&self) -> Option<&str> {
        if self.kind != PointKind::Exit {
            return None;
        }
        let (_, tail) = self.name.rsplit_once(":::EXIT")?;
        (!tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit())).then_some(tail)
    }

    /// The name of the aggregate exit a `:::EXIT<n>` point feeds.
    pub fn aggregate_exit_name(&self) -> Option<String> {
        let number = self.exit_number()?;
        Some(self.name[..self.name.len() - number.len()].to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_numbers_and_aggregates() {
        let exit = |name: &str| PointDecl {
            name: name.into(),
            function: "f".into(),
            kind: PointKind::Exit,
            vars: vec![],
        };
        assert_eq!(exit("f(int):::EXIT12").exit_number(), Some("12"));
        assert_eq!(
            exit("f(int):::EXIT12").aggregate_exit_name().as_deref(),
            Some("f(int):::EXIT")
        );
        assert_eq!(exit("f(int):::EXIT").exit_number(), None);
    }

    #[test]
    fn same_compares_float_bits() {
        assert!(Value::Float(f64::NAN).same(&Value::Float(f64::NAN)));
        assert!(!Value::Float(0.0).same(&Value::Float(-0.0)));
        assert!(Value::Missing.same(&Value::Missing));
        assert!(!Value::Int(1).same(&Value::Missing));
    }
}
