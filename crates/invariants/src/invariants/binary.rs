//! Invariants over two comparable variables.

use std::any::Any;
use std::marker::PhantomData;

use super::hull::Shape;
use super::unary::boilerplate;
use super::{Checker, Kind, Num};
use crate::claim::{Claim, Order};
use crate::confidence::{self, UNJUSTIFIED};
use crate::model::Value;

/// `x == y`, `x != y`, `x < y`, `x <= y`, `x > y`, `x >= y`. Equality is
/// justified by one sample; the order comparisons (and `!=`) need
/// [`confidence::order`].
#[derive(Clone, Debug)]
pub(crate) struct Compare<T> {
    op: Kind,
    samples: u64,
    num: PhantomData<T>,
}

impl<T: Num> Compare<T> {
    pub fn new(op: Kind) -> Compare<T> {
        Compare {
            op,
            samples: 0,
            num: PhantomData,
        }
    }

    fn holds(&self, x: T, y: T) -> bool {
        self.order().holds(x, y)
    }

    fn order(&self) -> Order {
        match self.op {
            Kind::Equal => Order::Equal,
            Kind::NonEqual => Order::NotEqual,
            Kind::Less => Order::Less,
            Kind::LessEqual => Order::LessEqual,
            Kind::Greater => Order::Greater,
            _ => Order::GreaterEqual,
        }
    }
}

impl<T: Num> Checker for Compare<T> {
    fn kind(&self) -> Kind {
        self.op
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        if !self.holds(T::scalar(vals[0]), T::scalar(vals[1])) {
            return false;
        }
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        match self.op {
            Kind::Equal => confidence::seen(self.samples),
            _ => confidence::order(self.samples),
        }
    }
    fn claim(&self) -> Option<Claim> {
        Some(Claim::Compare { order: self.order() })
    }
    fn permute(&mut self, perm: &[usize]) {
        if perm[0] == 1 {
            self.op = match self.op {
                Kind::Less => Kind::Greater,
                Kind::Greater => Kind::Less,
                Kind::LessEqual => Kind::GreaterEqual,
                Kind::GreaterEqual => Kind::LessEqual,
                same => same,
            };
        }
    }
    /// Any pair in the relation does: its consequents (`<=`, `>=`, `!=`)
    /// only count samples.
    fn history(&self) -> Vec<(Vec<Value>, u64)> {
        let (x, y) = match self.op {
            Kind::Less => (T::zero(), T::one()),
            Kind::Greater => (T::one(), T::zero()),
            _ => (T::zero(), T::zero()),
        };
        vec![(vec![x.value(), y.value()], self.samples)]
    }
    boilerplate!();
}

/// Samples `LinearBinary` needs before it is reported.
const MIN_PAIRS: u64 = 4;

/// `y == a * x + b` with integer `a != 0` and `b`: holds while the points
/// lie on one line. Reported after [`MIN_PAIRS`] samples once two distinct
/// points fixed the line; printed with the first variable as the dependent
/// one when its coefficients are integers, else the second. `a = 1, b = 0`
/// is left to `x == y`.
#[derive(Clone, Debug, Default)]
pub(crate) struct LinearBinary {
    shape: Shape<2>,
    samples: u64,
}

impl LinearBinary {
    fn shape(&self) -> Shape<2> {
        self.shape
    }

    /// A history that rebuilds this state (see `Shape::replay`).
    pub fn history(&self) -> Vec<(Vec<Value>, u64)> {
        let point = |p: [i128; 2]| p.iter().map(|&c| Value::Int(c as i64)).collect();
        self.shape()
            .replay(self.samples)
            .into_iter()
            .map(|(p, n)| (point(p), n))
            .collect()
    }
}

impl Checker for LinearBinary {
    fn kind(&self) -> Kind {
        Kind::LinearBinary
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let p = [i64::scalar(vals[0]) as i128, i64::scalar(vals[1]) as i128];
        if self.shape.contains(&p) {
            self.samples += count;
            return true;
        }
        let shape = self.shape.with(p);
        if shape == Shape::Full {
            return false;
        }
        self.shape = shape;
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        match self.shape() {
            Shape::Line(..) => confidence::at_least(self.samples, MIN_PAIRS),
            _ => UNJUSTIFIED,
        }
    }
    fn claim(&self) -> Option<Claim> {
        let Shape::Line(p, d) = self.shape() else {
            return None;
        };
        if d[0] == 0 || d[1] == 0 {
            return None;
        }
        [(0, 1), (1, 0)].into_iter().find_map(|(dep, ind)| {
            if d[dep] % d[ind] != 0 {
                return None;
            }
            let a = d[dep] / d[ind];
            let b = p[dep] - a * p[ind];
            if a == 1 && b == 0 {
                return None;
            }
            Some(Claim::Linear {
                dependent: dep,
                terms: vec![(a.try_into().ok()?, ind)],
                constant: b.try_into().ok()?,
            })
        })
    }
    fn permute(&mut self, perm: &[usize]) {
        self.shape = self.shape.permuted(perm);
    }
    boilerplate!();
}

/// Internal, naive mode: the two variables had the same value (or were both
/// missing) in every sample, i.e. they belong to one equality set.
#[derive(Clone, Debug, Default)]
pub(crate) struct SetEqual {
    samples: u64,
}

impl Checker for SetEqual {
    fn kind(&self) -> Kind {
        Kind::SetEqual
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        if !vals[0].same(vals[1]) {
            return false;
        }
        self.samples += count;
        true
    }
    fn sees_missing(&self) -> bool {
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        UNJUSTIFIED
    }
    fn claim(&self) -> Option<Claim> {
        None
    }
    boilerplate!();
}
