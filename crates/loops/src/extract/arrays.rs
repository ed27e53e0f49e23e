//! Arrays at a variable index: `a[i]` where `i` is not a constant. The
//! array is one variable of the loop's state, an SMT array from indices
//! (`long`) to elements (`Expr::Index` reads it, `Expr::Store` is its
//! value after `a[i] = v`). The base is a pointer or array variable the
//! loop cannot assign (a plain use of it is outside the fragment) and
//! whose address the function never takes. A write needs the array's
//! size (a declared `T a[N]`) and puts `0 <= i < N` in its path's
//! condition, so that no recurrent set rests on a write out of bounds;
//! a read of such an array does too, before the condition that reads
//! it (so an SRC's conjuncts test the bounds before the element), and a
//! read through a pointer is assumed within its array ([`ASSUMPTION`]). Aliasing with
//! cells and variables is judged by [`Extractor::apart`].

use tree_sitter::Node;
use weft_weave::joinpoint as cells;

use super::{Extractor, Partial, R};
use crate::ir::{BinOp, Expr, IntType};

/// What an SRC over array elements at a variable index assumes.
pub const ASSUMPTION: &str = "assuming the elements read lie within their arrays";

/// An array of the loop: whether its base is a pointer, and its size
/// when declared with one.
#[derive(Clone, Debug)]
pub(super) struct Array {
    pub pointer: bool,
    pub size: Option<i128>,
}

impl Extractor<'_> {
    /// `a[i]` read: a cell when `i` is constant, else an element of the
    /// array `a`.
    pub(super) fn element(&mut self, node: Node<'_>) -> R<Expr> {
        if cells::cell(self.text, node).is_some() {
            return Ok(Expr::Var(self.cell(node)?));
        }
        let (base, index, t) = self.indexed(node)?;
        if let Some(size) = self.arrays[&base].size {
            self.bounds.extend(in_bounds(&index, size));
        }
        Ok(Expr::Index(Box::new(Expr::Var(base)), Box::new(index), t))
    }

    /// The bounds read since the last time, taken.
    pub(super) fn take_bounds(&mut self) -> Vec<Expr> {
        std::mem::take(&mut self.bounds)
    }

    /// The base, index and element type of `a[i]`, the array registered.
    fn indexed(&mut self, node: Node<'_>) -> R<(String, Expr, IntType)> {
        let what = format!("array element at a variable index ({})", self.src(node));
        let base = node
            .child_by_field_name("argument")
            .map(unparenthesized)
            .filter(|b| b.kind() == "identifier")
            .ok_or_else(|| what.clone())?;
        let name = self.src(base).to_string();
        let index = self.expr(node.child_by_field_name("index").ok_or("subscript")?)?;
        if let Some(t) = self.vars.get(&name) {
            return Ok((name, index, *t));
        }
        let (t, array) = self.array_type(&name).map_err(|why| format!("{what}: {why}"))?;
        if cells::address_taken(self.text, node, &name) {
            return Err(format!("{what}: the function takes the address of {name}"));
        }
        self.vars.insert(name.clone(), t);
        self.arrays.insert(name.clone(), array);
        Ok((name, index, t))
    }

    /// The element type of array or pointer `base`, and what it is.
    fn array_type(&self, base: &str) -> R<(IntType, Array)> {
        let (t, pointer, d) = self.element_type(base, "arrays")?;
        let size = (!pointer).then(|| declared_size(&d.written)).flatten();
        Ok((t, Array { pointer, size }))
    }

    /// `a[i] = value` (`op` for `a[i] op= value`, else None) on path `p`:
    /// the array's next value stores the element, and the path goes on
    /// only within the array's bounds.
    pub(super) fn store(
        &mut self,
        left: Node<'_>,
        op: Option<BinOp>,
        value: Expr,
        mut p: Partial,
    ) -> R<Partial> {
        let (base, index, t) = self.indexed(left)?;
        within(&self.take_bounds(), &mut p);
        let size = self.arrays[&base]
            .size
            .ok_or_else(|| format!("writes {base}[…] at a variable index, and {base}'s size is unknown"))?;
        let array = p.value(&Expr::Var(base.clone()));
        let index = p.value(&index);
        let old = Expr::Index(Box::new(array.clone()), Box::new(index.clone()), t);
        let new = match op {
            Some(op) => Expr::bin(op, old, p.value(&value)),
            None => p.value(&value),
        };
        p.conds.extend(in_bounds(&index, size));
        let stored = Expr::Store(
            Box::new(array),
            Box::new(index),
            Box::new(Expr::Cast(t, Box::new(new))),
        );
        p.state.insert(base, stored);
        Ok(p)
    }
}

/// `0 <= i` and `i < size`, over `long`.
fn in_bounds(index: &Expr, size: i128) -> [Expr; 2] {
    let long = IntType {
        width: 64,
        signed: true,
    };
    let wide = || Expr::Cast(long, Box::new(index.clone()));
    [
        Expr::bin(BinOp::Ge, wide(), Expr::Const(0, long)),
        Expr::bin(BinOp::Lt, wide(), Expr::Const(size, long)),
    ]
}

/// Path `p` going on only within `bounds` (over the state where they
/// were read).
pub(super) fn within(bounds: &[Expr], p: &mut Partial) {
    for b in bounds {
        let b = p.value(b);
        p.conds.push(b);
    }
}

/// `cond` evaluated only within `bounds`: `b1 && … && cond`.
pub(super) fn within_all(bounds: Vec<Expr>, cond: Expr) -> Expr {
    bounds
        .into_iter()
        .rev()
        .fold(cond, |c, b| Expr::bin(BinOp::LAnd, b, c))
}

/// `N` of a declared type written `T [N]` (a decimal literal), if any.
fn declared_size(written: &str) -> Option<i128> {
    let inside = written.rsplit_once('[')?.1.strip_suffix(']')?.trim();
    inside.parse().ok().filter(|n| *n > 0)
}

/// `n` without the parentheses around it.
pub(super) fn unparenthesized(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "parenthesized_expression"
        && let Some(inner) = n.named_child(0)
    {
        n = inner;
    }
    n
}
