//! An SRC that multiplies variables, evaluated in C without undefined
//! behaviour. The woven check runs on the program's own values, and
//! `y*y*y` of an `int` overflows long before the loop's state does
//! anything unusual: signed overflow in the check itself would be
//! undefined behaviour, and an optimiser could make the check say
//! anything.
//!
//! - Over bit-vectors the SRC means wrapping arithmetic: each signed
//!   `+`, `-`, `*` and negation is done in the unsigned type of its
//!   width and converted back ([`wrapping`]), which is what the solver's
//!   bit-vector terms say (the conversion back is GCC's and Clang's
//!   modular one, implementation-defined, never undefined).
//! - Over ideal integers the SRC means exact arithmetic: it is evaluated
//!   in `long` with every variable cast to `long`, behind bounds on the
//!   variables small enough that no intermediate value can reach 2^62
//!   ([`exact`]). Within them the C value is the ideal one; beyond them
//!   the check stays quiet, which a sufficient condition may.

use crate::ir::{BinOp, Expr, IntType, UnOp, Vars};

const LONG: IntType = IntType {
    width: 64,
    signed: true,
};

/// `e` with every signed `+`, `-`, `*` and negation done in the unsigned
/// type of its width: `(int)((unsigned int)y * (unsigned int)y)`.
pub fn wrapping(e: &Expr, vars: &Vars) -> Expr {
    let ty = e.ty(vars);
    let unsigned = IntType { signed: false, ..ty };
    let as_unsigned = |a: &Expr| Expr::Cast(unsigned, Box::new(wrapping(a, vars)));
    match e {
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) if ty.signed => {
            Expr::Cast(ty, Box::new(Expr::bin(*op, as_unsigned(a), as_unsigned(b))))
        }
        Expr::Unary(UnOp::Neg, a) if ty.signed => {
            Expr::Cast(ty, Box::new(Expr::Unary(UnOp::Neg, Box::new(as_unsigned(a)))))
        }
        Expr::Var(_) | Expr::Const(..) | Expr::Store(..) => e.clone(),
        Expr::Index(a, i, t) => Expr::Index(a.clone(), Box::new(wrapping(i, vars)), *t),
        Expr::Unary(op, a) => Expr::Unary(*op, Box::new(wrapping(a, vars))),
        Expr::Binary(op, a, b) => Expr::bin(*op, wrapping(a, vars), wrapping(b, vars)),
        Expr::Cast(t, a) => Expr::Cast(*t, Box::new(wrapping(a, vars))),
        Expr::Cond(c, a, b) => Expr::Cond(
            Box::new(wrapping(c, vars)),
            Box::new(wrapping(a, vars)),
            Box::new(wrapping(b, vars)),
        ),
    }
}

/// The largest value any arithmetic subterm of `e` can take in magnitude
/// when every variable lies within ±`bound`; None past 2^126.
fn magnitude(e: &Expr, bound: i128) -> Option<i128> {
    let limit = 1i128 << 126;
    let m = match e {
        Expr::Var(_) => bound,
        Expr::Const(c, _) => c.checked_abs()?,
        Expr::Unary(UnOp::Not, a) => magnitude(a, bound).map(|_| 1)?,
        Expr::Unary(_, a) | Expr::Cast(_, a) => magnitude(a, bound)?.checked_add(1)?,
        Expr::Binary(op, a, b) => {
            let (x, y) = (magnitude(a, bound)?, magnitude(b, bound)?);
            match op {
                BinOp::Mul => x.checked_mul(y)?,
                BinOp::Add | BinOp::Sub => x.checked_add(y)?,
                BinOp::Div | BinOp::Rem => x.max(y),
                _ => x.max(y).max(1),
            }
        }
        Expr::Cond(c, a, b) => magnitude(c, bound)
            .and(magnitude(a, bound))?
            .max(magnitude(b, bound)?),
        // An element is bounded by nothing the check could test first.
        Expr::Index(..) | Expr::Store(..) => return None,
    };
    (m < limit).then_some(m)
}

/// `e`, an SRC over ideal integers, as C whose value is the ideal one:
/// `v >= -B && v <= B && …` for each variable, then `e` over `long`
/// with no cast kept, B the largest power of two under 2^31 for which
/// no subterm reaches 2^62. None when there is no such B (a constant
/// too large).
pub fn exact(e: &Expr) -> Option<Expr> {
    let fits = |b: i128| magnitude(e, b).is_some_and(|m| m < 1i128 << 62);
    let bound = (0..=31).rev().map(|k| 1i128 << k).find(|b| fits(*b))?;
    let mut names = std::collections::BTreeSet::new();
    e.vars(&mut names);
    let within = names.into_iter().flat_map(|v| {
        let var = || Expr::Var(v.clone());
        [
            Expr::bin(BinOp::Ge, var(), Expr::Const(-bound, LONG)),
            Expr::bin(BinOp::Le, var(), Expr::Const(bound, LONG)),
        ]
    });
    Some(
        within
            .chain(std::iter::once(in_long(e)))
            .reduce(|a, b| Expr::bin(BinOp::LAnd, a, b))
            .expect("the condition itself"),
    )
}

/// `e` over `long`: variables cast to it, constants of it, casts dropped.
fn in_long(e: &Expr) -> Expr {
    match e {
        Expr::Var(_) | Expr::Index(..) | Expr::Store(..) => Expr::Cast(LONG, Box::new(e.clone())),
        Expr::Const(c, _) => Expr::Const(*c, LONG),
        Expr::Cast(_, a) => in_long(a),
        Expr::Unary(op, a) => Expr::Unary(*op, Box::new(in_long(a))),
        Expr::Binary(op, a, b) => Expr::bin(*op, in_long(a), in_long(b)),
        Expr::Cond(c, a, b) => Expr::Cond(Box::new(in_long(c)), Box::new(in_long(a)), Box::new(in_long(b))),
    }
}
