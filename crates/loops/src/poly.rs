//! Polynomials over the loop's variables, for loops whose guard is a
//! polynomial equality (`y*y - 2*x + y == 0`): the guard and its finite
//! differences along the body (p(T(X)) − p(X), then that one's, …) in
//! normal form, as a candidate recurrent set ([`crate::src`]). A
//! difference that normalises to 0 ends the chain: the equalities before
//! it are then closed under the body by a ring identity, which holds
//! over the integers and modulo 2^w alike. Only such complete chains are
//! put to the solver: refuting an incomplete one would need a
//! counterexample in nonlinear arithmetic, which it rarely finds in
//! time.
//!
//! Only one width takes part: variables, casts and the arithmetic all at
//! the same width w ≥ 32 (no extension or truncation, which are no ring
//! maps), and only `+`, `-`, `*` and negation. Anything else is no
//! polynomial here. The atoms are candidates: the solver still decides
//! whether they form a recurrent set.

use std::collections::BTreeMap;

use crate::ir::{BinOp, Expr, IntType, UnOp, Vars};

/// A polynomial: each monomial (its variables, sorted, repeated by
/// power) with its non-zero integer coefficient.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Poly(BTreeMap<Vec<String>, i128>);

impl Poly {
    fn constant(c: i128) -> Poly {
        let mut p = Poly::default();
        p.add_term(vec![], c);
        p
    }

    fn add_term(&mut self, m: Vec<String>, c: i128) -> Option<()> {
        let sum = self.0.get(&m).copied().unwrap_or(0).checked_add(c)?;
        if sum == 0 {
            self.0.remove(&m);
        } else {
            self.0.insert(m, sum);
        }
        Some(())
    }

    fn plus(&self, other: &Poly, sign: i128) -> Option<Poly> {
        let mut p = self.clone();
        for (m, c) in &other.0 {
            p.add_term(m.clone(), c.checked_mul(sign)?)?;
        }
        Some(p)
    }

    fn times(&self, other: &Poly) -> Option<Poly> {
        let mut p = Poly::default();
        for (m, c) in &self.0 {
            for (n, d) in &other.0 {
                let mut mn = [m.as_slice(), n.as_slice()].concat();
                mn.sort();
                p.add_term(mn, c.checked_mul(*d)?)?;
            }
        }
        Some(p)
    }

    /// Whether it is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether it is a constant (zero included).
    pub fn is_constant(&self) -> bool {
        self.0.keys().all(|m| m.is_empty())
    }

    /// The highest degree of a monomial.
    pub fn degree(&self) -> usize {
        self.0.keys().map(Vec::len).max().unwrap_or(0)
    }

    /// `e` as a polynomial, when it is one at a single width of at least
    /// 32 bits (see the module's doc); its type.
    pub fn of(e: &Expr, vars: &Vars) -> Option<(Poly, IntType)> {
        let mut width = None;
        let p = Self::walk(e, vars, &mut width)?;
        let ty = e.ty(vars);
        (ty.width >= 32 && width.is_none_or(|w| w == ty.width)).then_some((p, ty))
    }

    fn walk(e: &Expr, vars: &Vars, width: &mut Option<u32>) -> Option<Poly> {
        let mut same = |w: u32| match *width {
            Some(v) => v == w,
            None => {
                *width = Some(w);
                w >= 32
            }
        };
        match e {
            Expr::Var(v) => {
                let w = vars.get(v)?.width;
                same(w).then(|| {
                    let mut p = Poly::default();
                    p.add_term(vec![v.clone()], 1);
                    p
                })
            }
            Expr::Const(c, _) => Some(Poly::constant(*c)),
            Expr::Unary(UnOp::Neg, a) => Poly::default().plus(&Self::walk(a, vars, width)?, -1),
            Expr::Cast(t, a) => {
                if !same(t.width) {
                    return None;
                }
                Self::walk(a, vars, width)
            }
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (x, y) = (Self::walk(a, vars, width)?, Self::walk(b, vars, width)?);
                match op {
                    BinOp::Add => x.plus(&y, 1),
                    BinOp::Sub => x.plus(&y, -1),
                    _ => x.times(&y),
                }
            }
            _ => None,
        }
    }

    /// The polynomial as C of type `ty`: monomials by falling degree
    /// (positive ones first within a degree), `c * v * w …`, joined by
    /// `+` and `-`.
    pub fn expr(&self, ty: IntType) -> Expr {
        let mut terms: Vec<(&Vec<String>, i128)> = self.0.iter().map(|(m, c)| (m, *c)).collect();
        terms.sort_by_key(|(m, c)| (std::cmp::Reverse(m.len()), *c < 0));
        let monomial = |m: &[String], c: i128| {
            let vars = m.iter().map(|v| Expr::Var(v.clone()));
            let product = vars.reduce(|a, b| Expr::bin(BinOp::Mul, a, b));
            match product {
                None => Expr::Const(c, ty),
                Some(p) if c == 1 => p,
                Some(p) => Expr::bin(BinOp::Mul, Expr::Const(c, ty), p),
            }
        };
        let mut out: Option<Expr> = None;
        for (m, c) in terms {
            out = Some(match out {
                None => monomial(m, c),
                Some(e) if c < 0 => Expr::bin(BinOp::Sub, e, monomial(m, -c)),
                Some(e) => Expr::bin(BinOp::Add, e, monomial(m, c)),
            });
        }
        out.unwrap_or(Expr::Const(0, ty))
    }
}

/// The polynomial equalities among `conds` (`a == b`, `!(a != b)`), as
/// `a - b` in normal form with its type, when one of them is not linear.
pub fn equalities(conds: &[Expr], vars: &Vars) -> Vec<(Poly, IntType)> {
    let found: Vec<(Poly, IntType)> = conds
        .iter()
        .filter_map(|c| match c {
            Expr::Binary(BinOp::Eq, a, b) => Some((a, b)),
            Expr::Unary(UnOp::Not, inner) => match &**inner {
                Expr::Binary(BinOp::Ne, a, b) => Some((a, b)),
                _ => None,
            },
            _ => None,
        })
        .filter_map(|(a, b)| Poly::of(&Expr::bin(BinOp::Sub, (**a).clone(), (**b).clone()), vars))
        .collect();
    if found.iter().any(|(p, _)| p.degree() > 1) {
        found
    } else {
        Vec::new()
    }
}

/// The finite differences of `p` along `next`, when they end within
/// `depth`: p1 = p(T(X)) − p(X), p2 = p1(T(X)) − p1(X), …, pk, where
/// pk(T(X)) − pk(X) is 0 or pk(T(X)) itself is. Then p == 0 ∧ p1 == 0 ∧
/// … ∧ pk == 0 is closed under the step by a ring identity. None when the
/// chain goes on past `depth`, meets a non-zero constant (no equality
/// chain holds) or leaves the polynomials.
pub fn differences(
    p: &Poly,
    ty: IntType,
    next: &BTreeMap<String, Expr>,
    vars: &Vars,
    depth: usize,
) -> Option<Vec<Poly>> {
    let mut chain = Vec::new();
    let mut current = p.clone();
    for _ in 0..=depth {
        let (stepped, _) = Poly::of(&current.expr(ty).subst(next), vars)?;
        let d = stepped.plus(&current, -1)?;
        if d.is_zero() || stepped.is_zero() {
            return Some(chain);
        }
        if d.is_constant() || chain.len() == depth {
            return None;
        }
        chain.push(d.clone());
        current = d;
    }
    None
}
