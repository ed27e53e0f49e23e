//! The affine hull of integer points, which is all a linear invariant
//! needs: `y = a*x + b` holds while the points `(x, y)` lie on one line,
//! `z = a*x + b*y + c` while the points `(x, y, z)` lie on one plane. The
//! hull is canonical (it does not depend on which points built it), so
//! invariants rebuilt from a summary of a history behave exactly like ones
//! that saw the history.
//!
//! Arithmetic is exact in `i128`; a product that would overflow counts as
//! leaving the shape (the invariant is falsified), which only values near
//! `i64::MAX` can cause.

/// The smallest affine subspace holding the points seen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) enum Shape<const D: usize> {
    #[default]
    Empty,
    Point([i128; D]),
    /// A point on the line and a primitive direction.
    Line([i128; D], [i128; D]),
    /// A point on the plane and a primitive normal (3-D only).
    Plane([i128; D], [i128; D]),
    /// Everything: no linear relation holds.
    Full,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    (a, b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The vector divided by the gcd of its components, first non-zero
/// component positive.
fn primitive<const D: usize>(v: [i128; D]) -> [i128; D] {
    let g = v.iter().fold(0, |g, &c| gcd(g, c));
    let sign = v.iter().find(|&&c| c != 0).map_or(1, |c| c.signum());
    v.map(|c| c / g * sign)
}

fn sub<const D: usize>(a: [i128; D], b: [i128; D]) -> [i128; D] {
    std::array::from_fn(|i| a[i] - b[i])
}

/// `a x b`, or `None` on overflow. In 2-D, the single component is in `[0]`.
fn cross<const D: usize>(a: [i128; D], b: [i128; D]) -> Option<[i128; 3]> {
    let m = |i: usize, j: usize| a[i].checked_mul(b[j])?.checked_sub(a[j].checked_mul(b[i])?);
    if D == 2 {
        return Some([m(0, 1)?, 0, 0]);
    }
    Some([m(1, 2)?, m(2, 0)?, m(0, 1)?])
}

fn dot<const D: usize>(a: [i128; D], b: [i128; D]) -> Option<i128> {
    (0..D).try_fold(0i128, |s, i| s.checked_add(a[i].checked_mul(b[i])?))
}

impl<const D: usize> Shape<D> {
    /// Whether `p` is in the hull already: the per-sample check, cheaper
    /// than building the hull anew.
    pub fn contains(&self, p: &[i128; D]) -> bool {
        match self {
            Shape::Empty => false,
            Shape::Point(q) => q == p,
            Shape::Line(q, d) => cross(*d, sub(*p, *q)) == Some([0; 3]),
            Shape::Plane(q, n) => dot(*n, sub(*p, *q)) == Some(0),
            Shape::Full => true,
        }
    }

    /// The hull once `p` is added too.
    pub fn with(self, p: [i128; D]) -> Shape<D> {
        match self {
            Shape::Empty => Shape::Point(p),
            Shape::Point(q) if q == p => self,
            Shape::Point(q) => Shape::Line(q, primitive(sub(p, q))),
            Shape::Line(q, d) => match cross(d, sub(p, q)) {
                Some(c) if c == [0; 3] => self,
                Some(c) if D == 3 => Shape::Plane(q, primitive(std::array::from_fn(|i| c[i]))),
                _ => Shape::Full,
            },
            Shape::Plane(q, n) => match dot(n, sub(p, q)) {
                Some(0) => self,
                _ => Shape::Full,
            },
            Shape::Full => Shape::Full,
        }
    }

    /// The same hull with coordinates reordered: new coordinate `i` was
    /// old coordinate `perm[i]`.
    pub fn permuted(self, perm: &[usize]) -> Shape<D> {
        let p = |v: [i128; D]| std::array::from_fn(|i| v[perm[i]]);
        match self {
            Shape::Point(q) => Shape::Point(p(q)),
            Shape::Line(q, d) => Shape::Line(p(q), primitive(p(d))),
            Shape::Plane(q, n) => Shape::Plane(p(q), primitive(p(n))),
            other => other,
        }
    }

    /// Points that rebuild this hull, as a replayed history: the anchor
    /// `samples - k` times and `k` more points spanning the rest.
    pub fn replay(self, samples: u64) -> Vec<([i128; D], u64)> {
        match self {
            Shape::Empty | Shape::Full => vec![],
            Shape::Point(q) => vec![(q, samples)],
            Shape::Line(q, d) => vec![(q, samples - 1), (std::array::from_fn(|i| q[i] + d[i]), 1)],
            Shape::Plane(..) => unreachable!("only lines and points are replayed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_grows_point_line_plane_full() {
        let s = Shape::<3>::Empty.with([0, 0, 0]);
        assert_eq!(s, Shape::Point([0, 0, 0]));
        let s = s.with([2, 4, 6]);
        assert_eq!(s, Shape::Line([0, 0, 0], [1, 2, 3]));
        assert_eq!(s.with([-1, -2, -3]), s);
        let s = s.with([1, 0, 0]);
        assert!(matches!(s, Shape::Plane(_, n) if n == primitive([0, 3, -2])));
        assert_eq!(s.with([0, 0, 1]), Shape::Full);
    }

    #[test]
    fn a_second_line_point_off_the_line_fills_2d() {
        let s = Shape::<2>::Empty.with([0, 1]).with([1, 3]);
        assert_eq!(s, Shape::Line([0, 1], [1, 2]));
        assert_eq!(s.with([2, 5]), s);
        assert_eq!(s.with([2, 6]), Shape::Full);
    }

    #[test]
    fn overflow_leaves_the_shape() {
        let s = Shape::<2>::Empty.with([0, 0]).with([1, i64::MAX as i128]);
        assert_eq!(s.with([i64::MAX as i128 * 4, 3]), Shape::Full);
    }
}
