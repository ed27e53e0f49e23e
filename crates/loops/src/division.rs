//! Division and remainder made safe: in C, `a / 0` and `a % 0` are
//! undefined (SIGFPE on x86), while the solver gives them a value. A path
//! that divides goes round only when each divisor it evaluates is non-zero,
//! and an SRC that divides is checked only behind its divisors being
//! non-zero (`(x != 0) && (y / x > 1)`: `&&` evaluates left to right, so
//! the woven check never divides by zero itself).

use crate::extract::Fragment;
use crate::ir::{BinOp, Expr};

/// The divisors of `e` that are not non-zero constants, innermost first
/// (a divisor that divides is guarded by its own divisors first).
pub fn divisors(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    collect(e, &mut out);
    out
}

fn collect(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Var(_) | Expr::Const(..) => {}
        Expr::Unary(_, a) | Expr::Cast(_, a) => collect(a, out),
        Expr::Binary(op, a, b) => {
            collect(a, out);
            collect(b, out);
            let constant = matches!(**b, Expr::Const(v, _) if v != 0);
            if matches!(op, BinOp::Div | BinOp::Rem) && !constant && !out.contains(b) {
                out.push((**b).clone());
            }
        }
        Expr::Cond(c, a, b) | Expr::Store(c, a, b) => {
            collect(c, out);
            collect(a, out);
            collect(b, out);
        }
        Expr::Index(a, i, _) => {
            collect(a, out);
            collect(i, out);
        }
    }
}

/// `d != 0` for a divisor.
fn non_zero(d: Expr) -> Expr {
    Expr::bin(BinOp::Ne, d, Expr::int(0))
}

/// `e` behind its divisors: `(d1 != 0) && … && e`; `e` itself without any.
pub fn guarded(e: Expr) -> Expr {
    divisors(&e)
        .into_iter()
        .rev()
        .fold(e, |acc, d| Expr::bin(BinOp::LAnd, non_zero(d), acc))
}

/// The fragment with every path's conditions joined by `d != 0` for each
/// divisor the path evaluates (in its conditions or its next values): a
/// path that would divide by zero crashes and never goes round.
pub fn safe_paths(fragment: &Fragment) -> Fragment {
    let mut safe = fragment.clone();
    for path in &mut safe.paths {
        let mut ds = Vec::new();
        for e in path.conds.iter().chain(path.next.values()) {
            for d in divisors(e) {
                if !ds.contains(&d) {
                    ds.push(d);
                }
            }
        }
        path.conds.extend(ds.into_iter().map(non_zero));
    }
    safe
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::UnOp;

    #[test]
    fn guards_inner_divisors_first() {
        let x = || Expr::Var("x".into());
        let y = || Expr::Var("y".into());
        // y / (x % y) > 1
        let e = Expr::bin(
            BinOp::Gt,
            Expr::bin(BinOp::Div, y(), Expr::bin(BinOp::Rem, x(), y())),
            Expr::int(1),
        );
        let text = guarded(e).to_string();
        let first_y = text.find("y != 0").expect(&text);
        let then_rem = text.find("(x % y) != 0").expect(&text);
        assert!(first_y < then_rem, "{text}");
        // A division by a non-zero constant needs no guard.
        let by_two = Expr::bin(BinOp::Div, x(), Expr::int(2));
        assert_eq!(guarded(by_two.clone()), by_two);
        assert!(divisors(&Expr::Unary(UnOp::Neg, Box::new(by_two))).is_empty());
    }
}
