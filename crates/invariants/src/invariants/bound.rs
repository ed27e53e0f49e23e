//! `x >= c` and `x <= c`, for scalars and (through `sequence.rs`) for the
//! elements of sequences.

use std::any::Any;

use super::{Checker, Kind, Num};
use crate::claim::Claim;
use crate::confidence::{JUSTIFIED, UNJUSTIFIED};
use crate::model::Value;

/// Samples a bound needs before it can be justified (more than this).
const REQUIRED_SAMPLES: u64 = 5;
/// Samples that must sit at the bound itself.
const REQUIRED_AT_BOUND: u64 = 3;

/// The three most extreme distinct values with their counts, and the value
/// at the other end, which is all the bound rule looks at.
#[derive(Clone, Debug)]
pub(crate) struct BoundCore<T> {
    /// `true` for a lower bound: extremes are the smallest values.
    lower: bool,
    samples: u64,
    extremes: Vec<(T, u64)>,
    far: Option<T>,
}

impl<T: Num> BoundCore<T> {
    pub fn new(lower: bool) -> BoundCore<T> {
        BoundCore {
            lower,
            samples: 0,
            extremes: Vec::with_capacity(3),
            far: None,
        }
    }

    fn beyond(&self, a: T, b: T) -> bool {
        if self.lower { a < b } else { a > b }
    }

    /// Counts `count` samples of `v`. NaN only counts as a sample.
    pub fn add(&mut self, v: T, count: u64) {
        self.samples += count;
        if v.partial_cmp(&v).is_none() {
            return;
        }
        match self.far {
            Some(f) if !self.beyond(f, v) => {}
            _ => self.far = Some(v),
        }
        if let Some(slot) = self.extremes.iter_mut().find(|(x, _)| *x == v) {
            slot.1 += count;
            return;
        }
        let at = self
            .extremes
            .iter()
            .position(|(x, _)| self.beyond(v, *x))
            .unwrap_or(self.extremes.len());
        if at < 3 {
            self.extremes.insert(at, (v, count));
            self.extremes.truncate(3);
        }
    }

    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// The bound: the most extreme value seen.
    pub fn bound(&self) -> Option<T> {
        self.extremes.first().map(|(v, _)| *v)
    }

    /// More than 5 samples, at least 3 of them at the bound; then either
    /// the bound is hit five times as often as a uniform spread over
    /// `[min, max]` would hit one value, or the bound and the next two
    /// distinct values each get at least half that uniform count. A bound
    /// that is merely the smallest of scattered values is thus not
    /// reported.
    pub fn probability(&self) -> f64 {
        let (Some(bound), Some(far)) = (self.bound(), self.far) else {
            return UNJUSTIFIED;
        };
        let at_bound = self.extremes[0].1;
        if self.samples <= REQUIRED_SAMPLES || at_bound < REQUIRED_AT_BOUND {
            return UNJUSTIFIED;
        }
        let range = if self.lower {
            T::range(bound, far)
        } else {
            T::range(far, bound)
        };
        let per_value = self.samples as f64 / range;
        if at_bound as f64 >= 5.0 * per_value {
            return JUSTIFIED;
        }
        let count = |i: usize| self.extremes.get(i).map_or(0, |e| e.1) as f64;
        if (0..3).all(|i| count(i) >= per_value / 2.0) {
            JUSTIFIED
        } else {
            UNJUSTIFIED
        }
    }

    /// The claim `x >= bound` (or `<=`), over every element with `elements`.
    pub fn claim(&self, elements: bool) -> Option<Claim> {
        Some(Claim::Bound {
            elements,
            lower: self.lower,
            bound: self.bound()?.value(),
        })
    }
}

/// `x >= c` (`LowerBound`) or `x <= c` (`UpperBound`). Never falsified: the
/// bound moves with the data; the rule in [`BoundCore::probability`] decides
/// whether it is reported.
#[derive(Clone, Debug)]
pub(crate) struct Bound<T>(BoundCore<T>);

impl<T: Num> Bound<T> {
    pub fn new(lower: bool) -> Bound<T> {
        Bound(BoundCore::new(lower))
    }
}

impl<T: Num> Checker for Bound<T> {
    fn kind(&self) -> Kind {
        if self.0.lower {
            Kind::LowerBound
        } else {
            Kind::UpperBound
        }
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        self.0.add(T::scalar(vals[0]), count);
        true
    }
    fn samples(&self) -> u64 {
        self.0.samples()
    }
    fn probability(&self) -> f64 {
        self.0.probability()
    }
    fn claim(&self) -> Option<Claim> {
        self.0.claim(false)
    }
    fn clone_box(&self) -> Box<dyn Checker> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
