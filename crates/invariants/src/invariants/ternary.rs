//! `z == a * x + b * y + c` over three comparable integer variables.

use std::any::Any;

use super::hull::Shape;
use super::unary::boilerplate;
use super::{Checker, Kind, Num};
use crate::claim::Claim;
use crate::confidence::{self, UNJUSTIFIED};
use crate::model::Value;

/// Samples `LinearTernary` needs before it is reported.
const MIN_TRIPLES: u64 = 5;

/// `z == a * x + b * y + c` with integer coefficients, all three variables
/// involved: holds while the points lie on one plane whose normal has no
/// zero component. A plane with a zero component is a binary relation in
/// disguise (or `x == y`), and since a hull only grows it can never become
/// a proper ternary one, so it falsifies the invariant at once. Reported
/// after [`MIN_TRIPLES`] samples; printed with the last variable whose
/// coefficients are integers as the dependent one (`z == a * x + b * y + c`).
#[derive(Clone, Debug, Default)]
pub(crate) struct LinearTernary {
    shape: Shape<3>,
    samples: u64,
}

impl LinearTernary {
    fn shape(&self) -> Shape<3> {
        self.shape
    }
}

impl Checker for LinearTernary {
    fn kind(&self) -> Kind {
        Kind::LinearTernary
    }
    fn add(&mut self, vals: &[&Value], count: u64) -> bool {
        let p = [0, 1, 2].map(|i| i64::scalar(vals[i]) as i128);
        if self.shape.contains(&p) {
            self.samples += count;
            return true;
        }
        let shape = self.shape.with(p);
        match shape {
            Shape::Full => return false,
            Shape::Plane(_, n) if n.contains(&0) => return false,
            _ => {}
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
            Shape::Plane(..) => confidence::at_least(self.samples, MIN_TRIPLES),
            _ => UNJUSTIFIED,
        }
    }
    fn claim(&self) -> Option<Claim> {
        let Shape::Plane(p, n) = self.shape() else {
            return None;
        };
        let c = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
        [2, 1, 0].into_iter().find_map(|dep| {
            let others: Vec<usize> = (0..3).filter(|&i| i != dep).collect();
            if c % n[dep] != 0 || others.iter().any(|&i| n[i] % n[dep] != 0) {
                return None;
            }
            let terms = others
                .iter()
                .map(|&i| Some(((-n[i] / n[dep]).try_into().ok()?, i)))
                .collect::<Option<Vec<_>>>()?;
            Some(Claim::Linear {
                dependent: dep,
                terms,
                constant: (c / n[dep]).try_into().ok()?,
            })
        })
    }
    fn permute(&mut self, perm: &[usize]) {
        self.shape = self.shape.permuted(perm);
    }
    boilerplate!();
}
