//! Each kind: holds, is falsified, and is not justified with few samples.

use super::*;
use crate::confidence::justified;

/// Feeds samples to a fresh invariant; `None` once one falsifies it.
fn run(kind: Kind, reps: &[Rep], samples: &[Vec<Value>]) -> Option<Box<dyn Checker>> {
    let mut inv = create(kind, reps);
    for s in samples {
        let refs: Vec<&Value> = s.iter().collect();
        if !inv.add(&refs, 1) {
            return None;
        }
    }
    Some(inv)
}

fn ints(rows: &[&[i64]]) -> Vec<Vec<Value>> {
    rows.iter()
        .map(|r| r.iter().map(|&v| Value::Int(v)).collect())
        .collect()
}

fn column(values: impl IntoIterator<Item = i64>) -> Vec<Vec<Value>> {
    values.into_iter().map(|v| vec![Value::Int(v)]).collect()
}

/// The text if the invariant survives and is justified at 0.99.
fn reported(kind: Kind, reps: &[Rep], samples: &[Vec<Value>], names: &[&str]) -> Option<String> {
    let inv = run(kind, reps, samples)?;
    justified(inv.probability(), 0.99)
        .then(|| inv.claim().map(|c| c.text(names)))
        .flatten()
}

const X: &[&str] = &["x"];
const XY: &[&str] = &["x", "y"];

#[test]
fn one_of() {
    let r = [Rep::Int];
    assert_eq!(
        reported(Kind::OneOf, &r, &column([9, 1, 6, 1]), X).unwrap(),
        "x one of { 1, 6, 9 }"
    );
    assert_eq!(reported(Kind::OneOf, &r, &column([4]), X).unwrap(), "x == 4");
    assert!(run(Kind::OneOf, &r, &column([1, 2, 3, 4])).is_none());
    assert!(reported(Kind::OneOf, &r, &[], X).is_none());
    let strings = vec![vec![Value::Str("b".into())], vec![Value::Str("a".into())]];
    assert_eq!(
        reported(Kind::OneOf, &[Rep::Str], &strings, X).unwrap(),
        r#"x one of { "a", "b" }"#
    );
    let null = vec![vec![Value::Pointer(0)]];
    assert_eq!(
        reported(Kind::OneOf, &[Rep::Pointer], &null, &["p"]).unwrap(),
        "p == null"
    );
    assert!(reported(Kind::OneOf, &[Rep::Pointer], &[vec![Value::Pointer(8)]], &["p"]).is_none());
}

#[test]
fn bounds() {
    let r = [Rep::Int];
    // Many samples at the bound: justified by the 5x rule.
    let heavy = column((0..30).map(|i| if i % 2 == 0 { 0 } else { i }));
    assert_eq!(reported(Kind::LowerBound, &r, &heavy, X).unwrap(), "x >= 0");
    // Uniform over 0..=3: the bound and the next two values are each common.
    let uniform = column((0..20).map(|i| i % 4));
    assert_eq!(reported(Kind::LowerBound, &r, &uniform, X).unwrap(), "x >= 0");
    assert_eq!(reported(Kind::UpperBound, &r, &uniform, X).unwrap(), "x <= 3");
    // Scattered values: the minimum is seen once.
    assert!(reported(Kind::LowerBound, &r, &column(0..30), X).is_none());
    // Five samples are never enough.
    assert!(reported(Kind::LowerBound, &r, &column([0, 0, 0, 0, 0]), X).is_none());
    let floats: Vec<Vec<Value>> = (0..12)
        .map(|i| vec![Value::Float((i % 3) as f64 * 0.5)])
        .collect();
    assert_eq!(
        reported(Kind::UpperBound, &[Rep::Float], &floats, X).unwrap(),
        "x <= 1.0"
    );
}

#[test]
fn non_zero() {
    let r = [Rep::Int];
    let mixed = column((0..40).map(|i| i % 7 - 3).filter(|&v| v != 0));
    assert_eq!(reported(Kind::NonZero, &r, &mixed, X).unwrap(), "x != 0");
    assert!(run(Kind::NonZero, &r, &column([1, 0])).is_none());
    // All positive: the bound says more.
    assert!(reported(Kind::NonZero, &r, &column(1..100), X).is_none());
    // Too few samples for a range of 6.
    assert!(reported(Kind::NonZero, &r, &column([-3, 3, -2, 2]), X).is_none());
    let pointers: Vec<Vec<Value>> = (1..=12).map(|i| vec![Value::Pointer(i * 8)]).collect();
    assert_eq!(
        reported(Kind::NonZero, &[Rep::Pointer], &pointers, &["p"]).unwrap(),
        "p != null"
    );
    assert!(reported(Kind::NonZero, &[Rep::Pointer], &pointers[..5], &["p"]).is_none());
}

#[test]
fn modulus_and_non_modulus() {
    let r = [Rep::Int];
    let threes = column((0..20).map(|i| 3 * i + 1));
    assert_eq!(reported(Kind::Modulus, &r, &threes, X).unwrap(), "x == 1 (mod 3)");
    assert!(run(Kind::Modulus, &r, &column([1, 4, 6])).is_none());
    assert!(
        reported(Kind::Modulus, &r, &column([1, 4, 7]), X).is_none(),
        "three samples"
    );
    let no_twos = column((0..30).map(|i| i % 6).filter(|v| v % 3 != 2));
    assert_eq!(
        reported(Kind::NonModulus, &r, &no_twos, X).unwrap(),
        "x != 2 (mod 3)"
    );
    assert!(run(Kind::NonModulus, &r, &column(0..840)).is_none());
    assert!(reported(Kind::NonModulus, &r, &no_twos[..4], X).is_none());
}

#[test]
fn even_and_power_of_two() {
    let r = [Rep::Int];
    assert_eq!(
        reported(Kind::Even, &r, &column((0..10).map(|i| 2 * i)), X).unwrap(),
        "x is even"
    );
    assert!(run(Kind::Even, &r, &column([2, 3])).is_none());
    assert!(reported(Kind::Even, &r, &column([2, 4, 6]), X).is_none());
    let powers = column((0..40).map(|i| 1 << (i % 20)));
    assert_eq!(
        reported(Kind::PowerOfTwo, &r, &powers, X).unwrap(),
        "x is a power of 2"
    );
    assert!(run(Kind::PowerOfTwo, &r, &column([4, 6])).is_none());
    assert!(run(Kind::PowerOfTwo, &r, &column([0])).is_none());
    assert!(
        reported(Kind::PowerOfTwo, &r, &column([1, 2, 1, 2, 1, 2, 1, 2]), X).is_none(),
        "dense range"
    );
}

#[test]
fn comparisons() {
    let r = [Rep::Int, Rep::Int];
    let less = ints(&[&[1, 2], &[3, 9], &[0, 1], &[5, 6], &[2, 4], &[7, 8], &[1, 9]]);
    assert_eq!(reported(Kind::Less, &r, &less, XY).unwrap(), "x < y");
    assert_eq!(reported(Kind::LessEqual, &r, &less, XY).unwrap(), "x <= y");
    assert_eq!(reported(Kind::NonEqual, &r, &less, XY).unwrap(), "x != y");
    assert!(run(Kind::Greater, &r, &less).is_none());
    assert!(run(Kind::Equal, &r, &less).is_none());
    assert!(
        reported(Kind::Less, &r, &less[..6], XY).is_none(),
        "0.5^6 is not below 0.01"
    );
    assert_eq!(
        reported(Kind::Equal, &r, &ints(&[&[3, 3]]), XY).unwrap(),
        "x == y"
    );
    let mut swapped = run(Kind::Less, &r, &less).unwrap();
    swapped.permute(&[1, 0]);
    assert_eq!(swapped.claim().unwrap().text(&["y", "x"]), "y > x");
}

#[test]
fn linear_binary() {
    let r = [Rep::Int, Rep::Int];
    let line = ints(&[&[0, 3], &[1, 5], &[4, 11], &[2, 7]]);
    assert_eq!(
        reported(Kind::LinearBinary, &r, &line, XY).unwrap(),
        "y == 2 * x + 3"
    );
    assert_eq!(
        reported(Kind::LinearBinary, &r, &line, &["b", "a"]).unwrap(),
        "a == 2 * b + 3"
    );
    let down = ints(&[&[0, 0], &[1, -1], &[2, -2], &[5, -5]]);
    assert_eq!(reported(Kind::LinearBinary, &r, &down, XY).unwrap(), "x == -y");
    assert!(run(Kind::LinearBinary, &r, &ints(&[&[0, 3], &[1, 5], &[2, 8]])).is_none());
    assert!(
        reported(Kind::LinearBinary, &r, &line[..3], XY).is_none(),
        "three samples"
    );
    // True but not with integer coefficients either way.
    assert!(
        reported(
            Kind::LinearBinary,
            &r,
            &ints(&[&[0, 0], &[3, 2], &[6, 4], &[9, 6]]),
            XY
        )
        .is_none()
    );
    // y == x is left to equality.
    assert!(
        reported(
            Kind::LinearBinary,
            &r,
            &ints(&[&[1, 1], &[2, 2], &[3, 3], &[4, 4]]),
            XY
        )
        .is_none()
    );
}

#[test]
fn linear_ternary() {
    let r = [Rep::Int; 3];
    // z == 2x - 3y + 1; neither x nor y has integer coefficients.
    let plane = ints(&[
        &[0, 0, 1],
        &[1, 0, 3],
        &[0, 1, -2],
        &[2, 5, -10],
        &[3, 1, 4],
        &[7, 7, -6],
    ]);
    assert_eq!(
        reported(Kind::LinearTernary, &r, &plane, &["x", "y", "z"]).unwrap(),
        "z == 2 * x - 3 * y + 1"
    );
    assert!(
        run(
            Kind::LinearTernary,
            &r,
            &ints(&[&[0, 0, 1], &[1, 0, 3], &[0, 1, -2], &[1, 1, 7]])
        )
        .is_none()
    );
    assert!(
        reported(Kind::LinearTernary, &r, &plane[..4], &["x", "y", "z"]).is_none(),
        "four samples"
    );
    // z == x: a plane with a zero coefficient is binary, not ternary.
    assert!(
        run(
            Kind::LinearTernary,
            &r,
            &ints(&[&[0, 0, 0], &[1, 0, 1], &[0, 5, 0]])
        )
        .is_none()
    );
}

#[test]
fn sequences() {
    let seqs = |rows: &[&[i64]]| -> Vec<Vec<Value>> {
        rows.iter().map(|r| vec![Value::IntSeq(r.to_vec())]).collect()
    };
    let r = [Rep::IntSeq];
    let a = &["a[]"];
    let up = seqs(&[&[1, 2, 5], &[0, 3, 4, 9], &[], &[2, 7], &[1, 2, 3]]);
    assert_eq!(reported(Kind::SortedLess, &r, &up, a).unwrap(), "a[] sorted by <");
    assert_eq!(
        reported(Kind::SortedLessEqual, &r, &up, a).unwrap(),
        "a[] sorted by <="
    );
    assert!(run(Kind::SortedGreaterEqual, &r, &up).is_none());
    assert!(
        reported(Kind::SortedLess, &r, &up[..2], a).is_none(),
        "five adjacent pairs"
    );
    assert!(run(Kind::SortedLess, &r, &seqs(&[&[1, 1]])).is_none());
    let few = seqs(&[&[1, 2], &[2, 1, 1], &[2]]);
    assert_eq!(
        reported(Kind::EltOneOf, &r, &few, a).unwrap(),
        "a[] elements one of { 1, 2 }"
    );
    assert!(run(Kind::EltOneOf, &r, &seqs(&[&[1, 2], &[3, 4]])).is_none());
    let low = seqs(&[&[0, 4, 0], &[0, 9], &[0, 0, 2], &[5, 0]]);
    assert_eq!(
        reported(Kind::EltLowerBound, &r, &low, a).unwrap(),
        "a[] elements >= 0"
    );
    assert!(reported(Kind::EltLowerBound, &r, &low[..1], a).is_none());
}

#[test]
fn antecedent_histories_rebuild_their_consequents() {
    // x < y held 9 times: x <= y rebuilt from its history has 9 samples.
    let r = [Rep::Int, Rep::Int];
    let less = run(Kind::Less, &r, &ints(&[&[1i64, 2][..]; 9])).unwrap();
    let mut le = create(Kind::LessEqual, &r);
    for (values, n) in less.history() {
        let refs: Vec<&Value> = values.iter().collect();
        assert!(le.add(&refs, n));
    }
    assert_eq!(le.samples(), 9);
    // x == 4 held 7 times: its bound sees 7 samples at 4.
    let single = run(Kind::SingleValue, &[Rep::Int], &column([4; 7])).unwrap();
    let mut bound = create(Kind::LowerBound, &[Rep::Int]);
    for (values, n) in single.history() {
        assert!(bound.add(&[&values[0]], n));
    }
    assert_eq!(
        (bound.samples(), bound.claim().unwrap().text(X)),
        (7, "x >= 4".to_string())
    );
}
