//! Invariants over the elements of one sequence variable. Their sample
//! counts are elements (for element invariants) or adjacent pairs (for
//! sortedness), not arrays: that is what the evidence is made of, and it
//! lets a suppression replay one-element arrays.

use std::any::Any;

use super::bound::BoundCore;
use super::unary::{ONE_OF_SIZE, boilerplate};
use super::{Checker, Kind, Num};
use crate::claim::{Claim, Order};
use crate::confidence::{self, UNJUSTIFIED};
use crate::model::Value;

/// `a[] elements one of { ... }` (or `a[] elements == v`): at most 3
/// distinct element values; justified once an element was seen.
#[derive(Clone, Debug)]
pub(crate) struct EltOneOf<T> {
    values: Vec<T>,
    samples: u64,
}

impl<T> Default for EltOneOf<T> {
    fn default() -> Self {
        EltOneOf {
            values: Vec::with_capacity(ONE_OF_SIZE),
            samples: 0,
        }
    }
}

impl<T: Num> Checker for EltOneOf<T> {
    fn kind(&self) -> Kind {
        Kind::EltOneOf
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let elems = T::elems(vals[0]);
        let same = |a: &T, b: &T| a.value().same(&b.value());
        // New values are rare: `extra` allocates only when one shows up.
        let mut extra: Vec<T> = Vec::new();
        for e in elems {
            if !self.values.iter().chain(&extra).any(|v| same(v, e)) {
                if self.values.len() + extra.len() == ONE_OF_SIZE {
                    return false;
                }
                extra.push(*e);
            }
        }
        self.values.extend(extra);
        self.samples += elems.len() as u64 * count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        confidence::seen(self.samples)
    }
    fn claim(&self) -> Option<Claim> {
        Some(Claim::OneOf {
            elements: true,
            values: self.values.iter().map(|v| v.value()).collect(),
        })
    }
    boilerplate!();
}

/// Internal: every element had one value. Antecedent of the element bounds.
#[derive(Clone, Debug)]
pub(crate) struct EltSingleValue<T> {
    value: Option<T>,
    samples: u64,
}

impl<T> Default for EltSingleValue<T> {
    fn default() -> Self {
        EltSingleValue {
            value: None,
            samples: 0,
        }
    }
}

impl<T: Num> Checker for EltSingleValue<T> {
    fn kind(&self) -> Kind {
        Kind::EltSingleValue
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let elems = T::elems(vals[0]);
        let Some(&first) = elems.first() else { return true };
        let value = self.value.unwrap_or(first);
        if elems.iter().any(|e| !e.value().same(&value.value())) {
            return false;
        }
        self.value = Some(value);
        self.samples += elems.len() as u64 * count;
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
    /// One-element arrays, one per element seen.
    fn history(&self) -> Vec<(Vec<Value>, u64)> {
        self.value
            .iter()
            .map(|v| (vec![T::seq(vec![*v])], self.samples))
            .collect()
    }
    boilerplate!();
}

/// `a[] elements >= c` / `a[] elements <= c`: the scalar bound rule over
/// all elements.
#[derive(Clone, Debug)]
pub(crate) struct EltBound<T>(BoundCore<T>, bool);

impl<T: Num> EltBound<T> {
    pub fn new(lower: bool) -> EltBound<T> {
        EltBound(BoundCore::new(lower), lower)
    }
}

impl<T: Num> Checker for EltBound<T> {
    fn kind(&self) -> Kind {
        if self.1 {
            Kind::EltLowerBound
        } else {
            Kind::EltUpperBound
        }
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        for &e in T::elems(vals[0]) {
            self.0.add(e, count);
        }
        true
    }
    fn samples(&self) -> u64 {
        self.0.samples()
    }
    fn probability(&self) -> f64 {
        self.0.probability()
    }
    fn claim(&self) -> Option<Claim> {
        self.0.claim(true)
    }
    boilerplate!();
}

/// `a[] sorted by <` (and `<=`, `>`, `>=`): every adjacent pair is in
/// order. Probability [`confidence::order`] over the adjacent pairs seen.
#[derive(Clone, Debug)]
pub(crate) struct Sorted<T> {
    op: Kind,
    pairs: u64,
    num: std::marker::PhantomData<T>,
}

impl<T: Num> Sorted<T> {
    pub fn new(op: Kind) -> Sorted<T> {
        Sorted {
            op,
            pairs: 0,
            num: std::marker::PhantomData,
        }
    }

    fn in_order(&self, a: T, b: T) -> bool {
        match self.op {
            Kind::SortedLess => a < b,
            Kind::SortedLessEqual => a <= b,
            Kind::SortedGreater => a > b,
            _ => a >= b,
        }
    }
}

impl<T: Num> Checker for Sorted<T> {
    fn kind(&self) -> Kind {
        self.op
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let elems = T::elems(vals[0]);
        if !elems.windows(2).all(|w| self.in_order(w[0], w[1])) {
            return false;
        }
        self.pairs += elems.len().saturating_sub(1) as u64 * count;
        true
    }
    fn samples(&self) -> u64 {
        self.pairs
    }
    fn probability(&self) -> f64 {
        if self.pairs == 0 {
            UNJUSTIFIED
        } else {
            confidence::order(self.pairs)
        }
    }
    fn claim(&self) -> Option<Claim> {
        let order = match self.op {
            Kind::SortedLess => Order::Less,
            Kind::SortedLessEqual => Order::LessEqual,
            Kind::SortedGreater => Order::Greater,
            _ => Order::GreaterEqual,
        };
        Some(Claim::Sorted { order })
    }
    /// Two-element arrays in the strict order, one per pair seen.
    fn history(&self) -> Vec<(Vec<Value>, u64)> {
        let pair = match self.op {
            Kind::SortedLess => vec![T::zero(), T::one()],
            _ => vec![T::one(), T::zero()],
        };
        vec![(vec![T::seq(pair)], self.pairs)]
    }
    boilerplate!();
}
