//! Invariants over one scalar variable (bounds are in `bound.rs`).

use std::any::Any;

use super::{Checker, Kind, Num};
use crate::claim::Claim;
use crate::confidence::{self, UNJUSTIFIED};
use crate::model::{Rep, Value};

/// Distinct values `OneOf` keeps before it is falsified.
pub(crate) const ONE_OF_SIZE: usize = 3;

macro_rules! boilerplate {
    () => {
        fn clone_box(&self) -> Box<dyn Checker> {
            Box::new(self.clone())
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    };
}
pub(crate) use boilerplate;

/// `x one of { a, b, c }` (or `x == a`) for numbers and strings; for
/// pointers only `p == null` is printed, addresses meaning nothing.
/// Justified once a value was seen.
#[derive(Clone, Debug)]
pub(crate) struct OneOf {
    rep: Rep,
    values: Vec<Value>,
    samples: u64,
}

impl OneOf {
    pub fn new(rep: Rep) -> OneOf {
        OneOf {
            rep,
            values: Vec::with_capacity(ONE_OF_SIZE),
            samples: 0,
        }
    }
}

impl Checker for OneOf {
    fn kind(&self) -> Kind {
        Kind::OneOf
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        if !self.values.iter().any(|v| v.same(vals[0])) {
            if self.values.len() == ONE_OF_SIZE {
                return false;
            }
            self.values.push(vals[0].clone());
        }
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        confidence::seen(self.samples)
    }
    fn claim(&self) -> Option<Claim> {
        if self.rep == Rep::Pointer && self.values != [Value::Pointer(0)] {
            return None;
        }
        Some(Claim::OneOf {
            elements: false,
            values: self.values.clone(),
        })
    }
    boilerplate!();
}

/// Internal: the variable had one present value, `x == c`. The antecedent
/// of the unary suppressions (bounds, modulus, ... all follow from it).
#[derive(Clone, Debug, Default)]
pub(crate) struct SingleValue {
    value: Option<Value>,
    samples: u64,
}

impl Checker for SingleValue {
    fn kind(&self) -> Kind {
        Kind::SingleValue
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        match &self.value {
            Some(v) if !v.same(vals[0]) => return false,
            Some(_) => {}
            None => self.value = Some(vals[0].clone()),
        }
        self.samples += count;
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
    fn history(&self) -> Vec<(Vec<Value>, u64)> {
        self.value
            .iter()
            .map(|v| (vec![v.clone()], self.samples))
            .collect()
    }
    boilerplate!();
}

/// `x != 0`, or `p != null` for pointers. Probability
/// [`confidence::non_zero`] over the observed range; for numbers it is not
/// justified when all values have one sign, as the bound then says more.
#[derive(Clone, Debug)]
pub(crate) struct NonZero<T> {
    pointer: bool,
    samples: u64,
    min_max: Option<(T, T)>,
}

impl<T: Num> NonZero<T> {
    pub fn new(pointer: bool) -> NonZero<T> {
        NonZero {
            pointer,
            samples: 0,
            min_max: None,
        }
    }
}

impl<T: Num> Checker for NonZero<T> {
    fn kind(&self) -> Kind {
        Kind::NonZero
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let v = T::scalar(vals[0]);
        if v == T::zero() {
            return false;
        }
        self.samples += count;
        self.min_max = Some(match self.min_max {
            None => (v, v),
            Some((lo, hi)) => (if v < lo { v } else { lo }, if v > hi { v } else { hi }),
        });
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        let Some((lo, hi)) = self.min_max else {
            return UNJUSTIFIED;
        };
        if self.pointer {
            return confidence::non_zero(self.samples, 3.0);
        }
        if lo > T::zero() || hi < T::zero() {
            return UNJUSTIFIED;
        }
        confidence::non_zero(self.samples, T::range(lo, hi))
    }
    fn claim(&self) -> Option<Claim> {
        Some(Claim::NonZero {
            pointer: self.pointer,
        })
    }
    boilerplate!();
}

/// Euclid's gcd, in 64 bits when both fit (128-bit division is slow and
/// this runs on every sample).
fn gcd(a: u128, b: u128) -> u128 {
    if let (Ok(mut a), Ok(mut b)) = (u64::try_from(a), u64::try_from(b)) {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        return a as u128;
    }
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `x == r (mod m)` with `m >= 2`: `m` is the gcd of the differences from
/// the first value, so one pass and O(1) state find the largest modulus.
/// Falsified when the gcd reaches 1. Probability [`confidence::modulus`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Modulus {
    first: Option<i64>,
    gcd: u128,
    samples: u64,
}

impl Modulus {
    /// `(m, r)` once two distinct values fixed a modulus of at least 2.
    pub fn modulus(&self) -> Option<(u128, u128)> {
        let first = self.first?;
        (self.gcd >= 2).then(|| (self.gcd, (first as i128).rem_euclid(self.gcd as i128) as u128))
    }
}

impl Checker for Modulus {
    fn kind(&self) -> Kind {
        Kind::Modulus
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let v = i64::scalar(vals[0]);
        let first = *self.first.get_or_insert(v);
        let g = gcd(self.gcd, (v as i128 - first as i128).unsigned_abs());
        if g == 1 {
            return false;
        }
        self.gcd = g;
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        confidence::modulus(self.samples, self.gcd)
    }
    fn claim(&self) -> Option<Claim> {
        let (m, r) = self.modulus()?;
        Some(Claim::Modulus {
            modulus: m.try_into().ok()?,
            residue: r.try_into().ok()?,
        })
    }
    boilerplate!();
}

/// Moduli `NonModulus` watches: 2 to 8, so that its state is one bit per
/// residue (35 bits).
const NON_MODULI: std::ops::RangeInclusive<u32> = 2..=8;

fn residue_bit(m: u32, r: u32) -> u64 {
    let offset: u32 = (2..m).sum();
    1 << (offset + r)
}

/// `x != r (mod m)`: the smallest modulus (2 to 8) for which the values hit
/// at least two residues but missed one (one residue would be a `Modulus`)
/// although they spread over at least `m` consecutive integers (else the
/// bounds already say it). Probability [`confidence::modulus`]; falsified
/// when every residue of every watched modulus was hit.
#[derive(Clone, Debug, Default)]
pub(crate) struct NonModulus {
    seen: u64,
    min_max: Option<(i64, i64)>,
    samples: u64,
}

impl NonModulus {
    fn missing(&self) -> Option<(u32, u32)> {
        let (lo, hi) = self.min_max?;
        let spread = hi as i128 - lo as i128 + 1;
        NON_MODULI.into_iter().find_map(|m| {
            let hit = (0..m).filter(|&r| self.seen & residue_bit(m, r) != 0).count();
            let missing = (0..m).find(|&r| self.seen & residue_bit(m, r) == 0)?;
            (hit >= 2 && spread >= m as i128).then_some((m, missing))
        })
    }
}

impl Checker for NonModulus {
    fn kind(&self) -> Kind {
        Kind::NonModulus
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let v = i64::scalar(vals[0]);
        let seen = NON_MODULI.fold(self.seen, |s, m| {
            s | residue_bit(m, v.rem_euclid(m as i64) as u32)
        });
        let all: u64 = (1 << NON_MODULI.sum::<u32>()) - 1;
        if seen == all {
            return false;
        }
        self.seen = seen;
        self.min_max = Some(self.min_max.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        self.missing()
            .map_or(UNJUSTIFIED, |(m, _)| confidence::modulus(self.samples, m as u128))
    }
    fn claim(&self) -> Option<Claim> {
        let (m, r) = self.missing()?;
        Some(Claim::NonModulus {
            modulus: m.into(),
            residue: r.into(),
        })
    }
    boilerplate!();
}

/// `x is even`: probability `0.5^n`, as for `x == 0 (mod 2)`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Even {
    samples: u64,
}

impl Checker for Even {
    fn kind(&self) -> Kind {
        Kind::Even
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        if i64::scalar(vals[0]) % 2 != 0 {
            return false;
        }
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        confidence::modulus(self.samples, 2)
    }
    fn claim(&self) -> Option<Claim> {
        Some(Claim::Even)
    }
    boilerplate!();
}

/// `x is a power of 2`. Needs two distinct values (one is a `OneOf`);
/// probability `p^n` where `p` is the share of powers of two among
/// `1..=max`.
#[derive(Clone, Debug, Default)]
pub(crate) struct PowerOfTwo {
    samples: u64,
    first: Option<i64>,
    max: i64,
    distinct: bool,
}

impl Checker for PowerOfTwo {
    fn kind(&self) -> Kind {
        Kind::PowerOfTwo
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let v = i64::scalar(vals[0]);
        if v <= 0 || v & (v - 1) != 0 {
            return false;
        }
        self.distinct |= self.first.is_some_and(|f| f != v);
        self.first.get_or_insert(v);
        self.max = self.max.max(v);
        self.samples += count;
        true
    }
    fn samples(&self) -> u64 {
        self.samples
    }
    fn probability(&self) -> f64 {
        if !self.distinct {
            return UNJUSTIFIED;
        }
        let share = (self.max.ilog2() + 1) as f64 / self.max as f64;
        share.min(1.0).powf(self.samples as f64)
    }
    fn claim(&self) -> Option<Claim> {
        Some(Claim::PowerOfTwo)
    }
    boilerplate!();
}
