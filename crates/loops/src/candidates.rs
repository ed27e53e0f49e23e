//! Candidate atoms for recurrent sets: S is a path's condition (or the
//! guard) conjoined with at most two of them, each combination checked
//! by the solver ([`crate::src`]). They come from the conditions
//! themselves, so that what the loop tests is what S can say.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{BinOp, Expr, Vars};

/// The first-round atoms of a path with conditions `base`, which reads
/// `read` and moves by `next`: each side of a disjunction, the sides of a
/// `!=`, the residue of a variable stepping by a constant that a `!=`
/// compares, a bound a variable's type can never pass, and the signs of
/// what the path reads and of what feeds it.
pub fn atoms(
    base: &[Expr],
    read: &BTreeSet<String>,
    next: &BTreeMap<String, Expr>,
    vars: &Vars,
) -> Vec<Expr> {
    let mut pool: Vec<Expr> = Vec::new();
    let push = |e: Expr, pool: &mut Vec<Expr>| {
        if !pool.contains(&e) && !base.contains(&e) {
            pool.push(e);
        }
    };
    // Each side of a disjunction implies it: `a || b` gives a and b,
    // `!(a && b)` gives !a and !b.
    for atom in base {
        match atom {
            Expr::Binary(BinOp::LOr, a, b) => {
                push((**a).clone(), &mut pool);
                push((**b).clone(), &mut pool);
            }
            Expr::Unary(crate::ir::UnOp::Not, inner) => {
                if let Expr::Binary(BinOp::LAnd, a, b) = &**inner {
                    push(Expr::negate((**a).clone()), &mut pool);
                    push(Expr::negate((**b).clone()), &mut pool);
                }
            }
            _ => {}
        }
    }
    // The sides of a `!=`, and the residue of a variable stepping by a
    // constant that a `!=` compares.
    for atom in base {
        if let Expr::Binary(BinOp::Ne, a, b) = atom {
            push(Expr::bin(BinOp::Lt, (**a).clone(), (**b).clone()), &mut pool);
            push(Expr::bin(BinOp::Gt, (**a).clone(), (**b).clone()), &mut pool);
            if let Expr::Var(v) = &**a
                && let Some(d) = crate::summary::step(v, &next[v])
                && d.abs() >= 2
            {
                let diff = Expr::bin(BinOp::Sub, Expr::Var(v.clone()), (**b).clone());
                push(
                    Expr::bin(
                        BinOp::Ne,
                        Expr::bin(BinOp::Rem, diff, Expr::int(d.abs())),
                        Expr::int(0),
                    ),
                    &mut pool,
                );
            }
        }
    }
    for bound in type_bounds(base, next, vars) {
        push(bound, &mut pool);
    }
    // A variable whose step reads memory (`j += a[j]`) stays put when the
    // step is 0: `j + a[j] == j`.
    for v in read {
        if next[v] != Expr::Var(v.clone()) && reads_element(&next[v]) {
            push(
                Expr::bin(BinOp::Eq, next[v].clone(), Expr::Var(v.clone())),
                &mut pool,
            );
        }
    }
    // Signs of what the path reads and of what feeds it.
    let mut feeding = read.clone();
    for v in read {
        next[v].vars(&mut feeding);
    }
    for v in &feeding {
        if !vars.contains_key(v) {
            continue;
        }
        let x = || Expr::Var(v.clone());
        push(Expr::bin(BinOp::Eq, x(), Expr::int(0)), &mut pool);
        for op in [BinOp::Gt, BinOp::Lt, BinOp::Ge, BinOp::Le] {
            push(Expr::bin(op, x(), Expr::int(0)), &mut pool);
        }
    }
    pool
}

/// Whether `e` reads an array element at a variable index.
fn reads_element(e: &Expr) -> bool {
    match e {
        Expr::Index(..) => true,
        Expr::Var(_) | Expr::Const(..) | Expr::Store(..) => false,
        Expr::Unary(_, a) | Expr::Cast(_, a) => reads_element(a),
        Expr::Binary(_, a, b) => reads_element(a) || reads_element(b),
        Expr::Cond(c, a, b) => reads_element(c) || reads_element(a) || reads_element(b),
    }
}

/// Bounds a variable's type can never pass: for `v < e` where e does not
/// change, `e` above the type's maximum (and so for the other orders).
fn type_bounds(base: &[Expr], next: &BTreeMap<String, Expr>, vars: &Vars) -> Vec<Expr> {
    let mut out = Vec::new();
    for atom in base {
        if let Expr::Binary(op, a, b) = atom
            && let Expr::Var(v) = &**a
            && let Some(t) = vars.get(v).filter(|t| t.width < 64)
        {
            let mut read_b = BTreeSet::new();
            b.vars(&mut read_b);
            if read_b
                .iter()
                .any(|w| next.get(w).is_some_and(|e| *e != Expr::Var(w.clone())))
            {
                continue;
            }
            let wide = |v: i128| {
                Expr::Const(
                    v,
                    crate::ir::IntType {
                        width: 64,
                        signed: true,
                    },
                )
            };
            let bound = match op {
                BinOp::Lt => Expr::bin(BinOp::Gt, (**b).clone(), wide(t.max())),
                BinOp::Le => Expr::bin(BinOp::Ge, (**b).clone(), wide(t.max())),
                BinOp::Gt => Expr::bin(BinOp::Lt, (**b).clone(), wide(t.min())),
                BinOp::Ge => Expr::bin(BinOp::Le, (**b).clone(), wide(t.min())),
                _ => continue,
            };
            out.push(bound);
        }
    }
    out
}

/// The second-round atoms, tried when the first round finds no recurrent
/// set: the boundaries of what the conditions compare. An equality test
/// `a == b` (or `!=`), anywhere in them, gives `a <= b` and `a >= b` (a
/// retry counter reset when it reaches 2 stays in `tries + 1 <= 2`); an
/// order test between two non-constant sides, `a < b`, gives them one
/// apart, `b - a == 1` (a binary search stuck with `hi - lo == 1`).
pub fn boundaries(base: &[Expr]) -> Vec<Expr> {
    let mut out = Vec::new();
    for atom in base {
        boundaries_in(atom, &mut out);
    }
    out.retain(|a| !base.contains(a));
    out
}

fn boundaries_in(e: &Expr, out: &mut Vec<Expr>) {
    let mut push = |a: Expr| {
        if !out.contains(&a) {
            out.push(a);
        }
    };
    match e {
        Expr::Binary(BinOp::LAnd | BinOp::LOr, a, b) => {
            boundaries_in(a, out);
            boundaries_in(b, out);
        }
        Expr::Unary(crate::ir::UnOp::Not, inner) => boundaries_in(inner, out),
        Expr::Binary(BinOp::Eq | BinOp::Ne, a, b) if a.constant().is_none() || b.constant().is_none() => {
            push(Expr::bin(BinOp::Le, (**a).clone(), (**b).clone()));
            push(Expr::bin(BinOp::Ge, (**a).clone(), (**b).clone()));
        }
        Expr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b)
            if a.constant().is_none() && b.constant().is_none() =>
        {
            let (low, high) = if matches!(op, BinOp::Lt | BinOp::Le) {
                (a, b)
            } else {
                (b, a)
            };
            let apart = Expr::bin(BinOp::Sub, (**high).clone(), (**low).clone());
            push(Expr::bin(BinOp::Eq, apart, Expr::int(1)));
        }
        _ => {}
    }
}
