//! Summaries of paths whose rounds come back within a known number of
//! rounds J: from X, the states X_0 = X, X_1, … after each round have a
//! closed form, and X_j repeats an earlier one for every j > J. The path
//! is then taken forever from X exactly when C_p(X_0) ∧ … ∧ C_p(X_J):
//! the weakest SRC of that path, as a C condition of J + 1 conjuncts.
//!
//! *Shifting paths* (bit-vectors): a variable of width w shifted by a
//! constant c each round reaches its fixpoint within ⌈w/c⌉ rounds and
//! stays there: 0 when shifted left, 0 or -1 (by its sign) when shifted
//! right. *Permuting paths*: variables that take each other's values
//! (`t = a; a = b; b = c; c = t`) are back where they started after the
//! permutation's order, whatever the semantics.

use std::collections::{BTreeMap, BTreeSet};

use crate::extract::Path;
use crate::ir::{BinOp, Expr, INT, IntType, Vars};

/// How one variable moves each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shift {
    op: BinOp,
    by: u32,
    ty: IntType,
}

/// The weakest condition under which a shifting path is taken forever:
/// None when it is not one (a variable its condition reads changes
/// otherwise, or none is shifted).
pub fn shifting(path: &Path, vars: &Vars) -> Option<Expr> {
    let (read, next) = reads(path, vars);
    let mut shifts = BTreeMap::new();
    for v in &read {
        let t = *vars.get(v)?;
        if next[v] != Expr::Var(v.clone()) {
            shifts.insert(v.clone(), shift_of(v, &next[v], t)?);
        }
    }
    let rounds = shifts.values().map(|s| s.ty.width.div_ceil(s.by)).max()?;
    unrolled(path, rounds, |j| {
        shifts
            .iter()
            .map(|(v, s)| (v.clone(), shifted(v, *s, j.saturating_mul(s.by))))
            .collect()
    })
}

/// The weakest condition under which a permuting path is taken forever:
/// None when it is not one (a variable its condition reads, or one that
/// feeds those, takes anything but the value of another such variable of
/// its type), or when the permutation is the identity.
pub fn permuting(path: &Path, vars: &Vars) -> Option<Expr> {
    let (read, next) = reads(path, vars);
    // The variables the condition reads, closed under what feeds them.
    let mut moved: BTreeMap<String, String> = BTreeMap::new();
    let mut todo: Vec<String> = read.into_iter().collect();
    while let Some(v) = todo.pop() {
        if moved.contains_key(&v) {
            continue;
        }
        let from = source(&next[&v], vars.get(&v)?, vars)?;
        todo.push(from.clone());
        moved.insert(v, from);
    }
    let targets: BTreeSet<&String> = moved.values().collect();
    if targets.len() != moved.len() || moved.iter().all(|(v, from)| v == from) {
        return None;
    }
    // X_j[v] = X_0[at_j[v]], with at_{j+1}[v] = moved[at_j[v]], until
    // the permutation comes back to the identity.
    let identity: BTreeMap<String, String> = moved.keys().map(|v| (v.clone(), v.clone())).collect();
    let mut orbit = vec![identity.clone()];
    loop {
        let at: BTreeMap<String, String> = orbit[orbit.len() - 1]
            .iter()
            .map(|(v, a)| (v.clone(), moved[a].clone()))
            .collect();
        if at == identity {
            break;
        }
        if orbit.len() >= MAX_PERIOD {
            return None;
        }
        orbit.push(at);
    }
    unrolled(path, orbit.len() as u32 - 1, |j| {
        orbit[j as usize]
            .iter()
            .map(|(v, a)| (v.clone(), Expr::Var(a.clone())))
            .collect()
    })
}

/// Permutations of a longer period are left to the candidates.
pub const MAX_PERIOD: usize = 16;

/// The variable whose value `e` is, through casts to its own type.
fn source(e: &Expr, ty: &crate::ir::IntType, vars: &Vars) -> Option<String> {
    match e {
        Expr::Var(w) => (vars.get(w) == Some(ty)).then(|| w.clone()),
        Expr::Cast(t, inner) if t == ty => source(inner, ty, vars),
        _ => None,
    }
}

/// The variables the path's condition reads, and its transition.
fn reads(path: &Path, vars: &Vars) -> (BTreeSet<String>, BTreeMap<String, Expr>) {
    let mut read = BTreeSet::new();
    for c in &path.conds {
        c.vars(&mut read);
    }
    (read, path.transition(vars))
}

/// C_p(X_0) ∧ … ∧ C_p(X_rounds), where `after(j)` substitutes X_j.
fn unrolled(path: &Path, rounds: u32, after: impl Fn(u32) -> BTreeMap<String, Expr>) -> Option<Expr> {
    let mut conjuncts: Vec<Expr> = Vec::new();
    for j in 0..=rounds {
        let at = after(j);
        for c in path.conds.iter().flat_map(Expr::conjuncts) {
            let c = c.subst(&at);
            if !conjuncts.contains(&c) {
                conjuncts.push(c);
            }
        }
    }
    conjuncts.into_iter().reduce(|a, b| Expr::bin(BinOp::LAnd, a, b))
}

/// `v` shifted by a constant, as its update `(T)(v << c)` or `(T)(v >> c)`.
fn shift_of(v: &str, e: &Expr, ty: IntType) -> Option<Shift> {
    let Expr::Cast(to, inner) = e else {
        return None;
    };
    let Expr::Binary(op @ (BinOp::Shl | BinOp::Shr), a, b) = &**inner else {
        return None;
    };
    let by = u32::try_from(b.constant()?).ok()?;
    (*to == ty && **a == Expr::Var(v.to_string()) && (1..ty.width).contains(&by)).then_some(Shift {
        op: *op,
        by,
        ty,
    })
}

/// `v` after shifts adding up to `k` bits, as C without undefined
/// behaviour: no shift by the width or more (the fixpoint instead), and
/// left shifts of signed values done unsigned.
fn shifted(v: &str, s: Shift, k: u32) -> Expr {
    let x = || Expr::Var(v.to_string());
    let zero = Expr::Const(0, s.ty);
    if k == 0 {
        return x();
    }
    if k >= s.ty.width {
        return match (s.op, s.ty.signed) {
            (BinOp::Shr, true) => Expr::Cond(
                Box::new(Expr::bin(BinOp::Lt, x(), Expr::int(0))),
                Box::new(Expr::Const(-1, s.ty)),
                Box::new(zero),
            ),
            _ => zero,
        };
    }
    let operand = if s.op == BinOp::Shl && s.ty.signed {
        let unsigned = IntType {
            width: s.ty.promoted().width,
            signed: false,
        };
        Expr::Cast(unsigned, Box::new(x()))
    } else {
        x()
    };
    Expr::Cast(
        s.ty,
        Box::new(Expr::bin(s.op, operand, Expr::Const(i128::from(k), INT))),
    )
}
