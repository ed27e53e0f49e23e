//! Path summaries of inductive paths and quantifier elimination (ideal
//! integers). A path whose transition adds a constant c_v to each variable
//! its condition reads (or leaves it) is *inductive*: after k rounds the
//! state is X + k·c. The path is then taken forever from X exactly when
//! ∀k ≥ 0. C_p(X + k·c); the solver eliminates k, and the quantifier-free
//! result, read back as C, is the weakest SRC of that path.

use std::collections::{BTreeMap, BTreeSet};

use weft_smt::{Query, Sexp, Solver};

use crate::encode::{Encoder, Semantics, smt_var};
use crate::extract::Path;
use crate::ir::{BinOp, Expr, IntType, UnOp, Vars};

const K: &str = "weft_k";
const LONG: IntType = IntType {
    width: 64,
    signed: true,
};

/// The constant step of each variable the path's condition reads, when
/// the path is inductive (0 for unchanged variables).
pub fn steps(path: &Path, vars: &Vars) -> Option<BTreeMap<String, i128>> {
    let mut read = BTreeSet::new();
    for c in &path.conds {
        c.vars(&mut read);
    }
    let next = path.transition(vars);
    read.into_iter()
        .map(|v| {
            let e = &next[&v];
            let d = if *e == Expr::Var(v.clone()) {
                Some(0)
            } else {
                step(&v, e)
            };
            d.map(|d| (v, d))
        })
        .collect()
}

/// The constant a variable's update adds (through casts): `v + d`, `v - d`.
pub(crate) fn step(v: &str, e: &Expr) -> Option<i128> {
    match e {
        Expr::Cast(_, inner) => step(v, inner),
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) if **a == Expr::Var(v.to_string()) => {
            let d = b.constant()?;
            Some(if *op == BinOp::Add { d } else { -d })
        }
        _ => None,
    }
}

/// The weakest condition under which an inductive path is taken forever,
/// over ideal integers: Ok(None) when there is none (the path always
/// ends), Err when the path is not inductive or the answer cannot be
/// read back.
pub fn eliminate(path: &Path, vars: &Vars, solver: &Solver) -> Result<Option<Expr>, String> {
    let steps = steps(path, vars).ok_or("not inductive")?;
    let shifted: BTreeMap<String, Expr> = steps
        .iter()
        .map(|(v, d)| {
            let k = Expr::bin(BinOp::Mul, Expr::Var(K.into()), Expr::Const(*d, LONG));
            (v.clone(), Expr::bin(BinOp::Add, Expr::Var(v.clone()), k))
        })
        .collect();
    let mut with_k = vars.clone();
    with_k.insert(K.into(), LONG);
    let enc = Encoder {
        vars: &with_k,
        semantics: Semantics::Ideal,
    };
    let body = path
        .conds
        .iter()
        .map(|c| enc.cond(&c.subst(&shifted)))
        .collect::<Result<Vec<_>, _>>()?
        .join(" ");
    let k = smt_var(K);
    let mut q = Query::new(None);
    for v in vars.keys() {
        q.declare(&smt_var(v), weft_smt::Sort::Int);
    }
    q.assert(format!("(forall (({k} Int)) (=> (>= {k} 0) (and true {body})))"));
    let goals = solver.eliminate(&q).map_err(|e| e.to_string())?;
    let mut disjuncts = Vec::new();
    for goal in goals {
        let atoms = goal
            .iter()
            .map(|f| read_back(f, vars, &BTreeMap::new()))
            .collect::<Result<Vec<_>, _>>()?;
        disjuncts.push(
            atoms
                .into_iter()
                .reduce(|a, b| Expr::bin(BinOp::LAnd, a, b))
                .unwrap_or(Expr::int(1)),
        );
    }
    Ok(disjuncts.into_iter().reduce(|a, b| Expr::bin(BinOp::LOr, a, b)))
}

/// A quantifier-free solver formula over ideal integers, as C.
fn read_back(s: &Sexp, vars: &Vars, lets: &BTreeMap<String, Expr>) -> Result<Expr, String> {
    let fail = || format!("cannot read back {s}");
    let items = match s {
        Sexp::Atom(a) => {
            if let Some(e) = lets.get(a) {
                return Ok(e.clone());
            }
            if a == "true" {
                return Ok(Expr::int(1));
            }
            if a == "false" {
                return Ok(Expr::int(0));
            }
            if let Some(v) = crate::encode::from_smt_var(a)
                && vars.contains_key(&v)
            {
                return Ok(Expr::Var(v));
            }
            let n: i128 = a.parse().map_err(|_| fail())?;
            let t = if crate::ir::INT.min() <= n && n <= crate::ir::INT.max() {
                crate::ir::INT
            } else {
                LONG
            };
            return Ok(Expr::Const(n, t));
        }
        Sexp::List(items) => items,
    };
    let (Some(Sexp::Atom(head)), args) = (items.first(), &items[1..]) else {
        return Err(fail());
    };
    if head == "let" {
        let mut inner = lets.clone();
        for binding in args.first().and_then(Sexp::list).ok_or_else(fail)? {
            let [Sexp::Atom(name), value] = binding.list().ok_or_else(fail)? else {
                return Err(fail());
            };
            let value = read_back(value, vars, &inner)?;
            inner.insert(name.clone(), value);
        }
        return read_back(args.get(1).ok_or_else(fail)?, vars, &inner);
    }
    let a: Vec<Expr> = args
        .iter()
        .map(|x| read_back(x, vars, lets))
        .collect::<Result<_, _>>()?;
    let fold = |op: BinOp| {
        a.iter()
            .cloned()
            .reduce(|x, y| Expr::bin(op, x, y))
            .ok_or_else(fail)
    };
    let two = |op: BinOp| match a.as_slice() {
        [x, y] => Ok(Expr::bin(op, x.clone(), y.clone())),
        _ => Err(fail()),
    };
    match head.as_str() {
        // x + (-y) is x - y, (-1) * x is -x: the solver's normal form, as
        // a person writes it.
        "+" => a
            .iter()
            .cloned()
            .reduce(|x, y| match (x, y) {
                (x, Expr::Unary(UnOp::Neg, y)) => Expr::bin(BinOp::Sub, x, *y),
                (Expr::Unary(UnOp::Neg, x), y) => Expr::bin(BinOp::Sub, y, *x),
                (x, y) => Expr::bin(BinOp::Add, x, y),
            })
            .ok_or_else(fail),
        "*" if a.len() == 2 && a[0].constant() == Some(-1) => {
            Ok(Expr::Unary(UnOp::Neg, Box::new(a[1].clone())))
        }
        "-" if a.len() == 1 => Ok(Expr::Unary(UnOp::Neg, Box::new(a[0].clone()))),
        "-" => fold(BinOp::Sub),
        "*" => fold(BinOp::Mul),
        "and" => fold(BinOp::LAnd),
        "or" => fold(BinOp::LOr),
        "not" if a.len() == 1 => Ok(not(a[0].clone())),
        "=>" => match a.as_slice() {
            [x, y] => Ok(Expr::bin(BinOp::LOr, Expr::negate(x.clone()), y.clone())),
            _ => Err(fail()),
        },
        "<" => two(BinOp::Lt),
        "<=" => two(BinOp::Le),
        ">" => two(BinOp::Gt),
        ">=" => two(BinOp::Ge),
        "=" => two(BinOp::Eq),
        "ite" => match a.as_slice() {
            [c, x, y] => Ok(Expr::Cond(
                Box::new(c.clone()),
                Box::new(x.clone()),
                Box::new(y.clone()),
            )),
            _ => Err(fail()),
        },
        // Floor modulo and division by a positive constant, from C's
        // truncating ones: ((x % c) + c) % c, and (x - that) / c.
        "mod" | "div" => match a.as_slice() {
            [x, c] if c.constant().is_some_and(|c| c > 0) => {
                let m = Expr::bin(
                    BinOp::Rem,
                    Expr::bin(BinOp::Add, Expr::bin(BinOp::Rem, x.clone(), c.clone()), c.clone()),
                    c.clone(),
                );
                Ok(if head == "mod" {
                    m
                } else {
                    Expr::bin(BinOp::Div, Expr::bin(BinOp::Sub, x.clone(), m), c.clone())
                })
            }
            _ => Err(fail()),
        },
        _ => Err(fail()),
    }
}

/// Negation pushed through `&&` and `||` (De Morgan) down to comparisons.
fn not(e: Expr) -> Expr {
    match e {
        Expr::Binary(BinOp::LAnd, a, b) => Expr::bin(BinOp::LOr, not(*a), not(*b)),
        Expr::Binary(BinOp::LOr, a, b) => Expr::bin(BinOp::LAnd, not(*a), not(*b)),
        e => Expr::negate(e),
    }
}
