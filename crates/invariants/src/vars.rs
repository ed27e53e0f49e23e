//! The variables a point's invariants range over: the declared ones plus a
//! derived `size(a[])` after each sequence, and what the engine remembers
//! about each variable on its own ([`VarStats`]).

use crate::model::{PointDecl, Rep, Value};

/// A variable as the invariants see it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VarInfo {
    /// Printed name: sequences end in `[]`.
    pub name: String,
    pub rep: Rep,
    pub comparability: Option<u32>,
    /// For a derived `size(a[])`, the index of `a[]` among the variables.
    pub size_of: Option<usize>,
    /// For a declared variable, its position in the sample.
    pub declared: Option<usize>,
}

/// The declared variables with a derived `size(a[])` right after each
/// sequence `a[]`, so that `size(a[]) == n` reads in declaration order.
pub(crate) fn expand(decl: &PointDecl) -> Vec<VarInfo> {
    let mut vars = Vec::new();
    for (i, var) in decl.vars.iter().enumerate() {
        // `a[]` and `orig(a[])` already read as sequences.
        let named = var.name.ends_with(']') || var.name.ends_with("[])");
        let name = if var.rep.is_sequence() && !named {
            format!("{}[]", var.name)
        } else {
            var.name.clone()
        };
        vars.push(VarInfo {
            name: name.clone(),
            rep: var.rep,
            comparability: var.comparability,
            size_of: None,
            declared: Some(i),
        });
        if var.rep.is_sequence() {
            vars.push(VarInfo {
                name: format!("size({name})"),
                rep: Rep::Int,
                comparability: None,
                size_of: Some(vars.len() - 1),
                declared: None,
            });
        }
    }
    vars
}

/// One sample's values for every variable of [`expand`], derived ones
/// computed from the declared ones.
pub(crate) fn derive_values(vars: &[VarInfo], sample: &[Value], out: &mut Vec<Value>) {
    out.clear();
    for var in vars {
        let value = match (var.declared, var.size_of) {
            (Some(i), _) => sample[i].clone(),
            (None, Some(seq)) => match out[seq].seq_len() {
                Some(len) => Value::Int(len as i64),
                None => Value::Missing,
            },
            (None, None) => unreachable!("a variable is declared or derived"),
        };
        out.push(value);
    }
}

/// Whether two variables may take part in one binary or ternary invariant:
/// the same numeric representation, and equal comparability numbers when
/// both have one.
pub(crate) fn comparable(a: &VarInfo, b: &VarInfo) -> bool {
    a.rep == b.rep
        && a.rep.is_numeric()
        && match (a.comparability, b.comparability) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        }
}

/// Whether two variables may share an equality set. Stricter than
/// [`comparable`] (identical comparability, `None` only with `None`), so
/// that set membership is an equivalence: with `None` as a wildcard,
/// `x ~ s ~ y` would not give `x ~ y`.
pub(crate) fn same_class(a: &VarInfo, b: &VarInfo) -> bool {
    a.rep == b.rep && a.comparability == b.comparability
}

/// What the engine remembers about one variable, whatever the mode: enough
/// to know whether it is a constant, and to replay its history onto an
/// invariant that compares it with a copy of itself (see `point.rs`).
#[derive(Clone, Debug)]
pub(crate) struct VarStats {
    /// Samples in which the variable was present.
    pub present: u64,
    /// Its first present value.
    pub first: Option<Value>,
    /// A present value different from `first`, once one was seen.
    pub second: Option<Value>,
    /// The value of the first sample (possibly `Missing`).
    pub constant: Option<Value>,
    /// Whether every sample so far had the value `constant`; a variable
    /// missing in some samples and present in others is not a constant.
    pub is_constant: bool,
}

impl VarStats {
    pub fn new() -> VarStats {
        VarStats {
            present: 0,
            first: None,
            second: None,
            constant: None,
            is_constant: true,
        }
    }

    /// Records one sample's value.
    pub fn add(&mut self, value: &Value) {
        match &self.constant {
            None => self.constant = Some(value.clone()),
            Some(c) => self.is_constant &= c.same(value),
        }
        if value.is_missing() {
            return;
        }
        self.present += 1;
        match &self.first {
            None => self.first = Some(value.clone()),
            Some(first) if self.second.is_none() && !first.same(value) => self.second = Some(value.clone()),
            Some(_) => {}
        }
    }

    /// The history of a variable in the form invariants replay: its values
    /// with repeat counts, in an order and with multiplicities that leave
    /// every invariant in the state the real history would (all invariants
    /// over `(x, x, ...)` only see `first`, `second` and the count).
    pub fn replay(&self) -> Vec<(Value, u64)> {
        match (&self.first, &self.second) {
            (None, _) => vec![],
            (Some(f), None) => vec![(f.clone(), self.present)],
            (Some(f), Some(s)) => vec![(f.clone(), self.present - 1), (s.clone(), 1)],
        }
    }
}
