//! The optimisations do save work: fewer invariants are instantiated.
//! (That they do not change the report is `equivalence.rs`.)

use weft_invariants::{Config, Engine, PointDecl, PointKind, Rep, Value, VarDecl};

fn engine(optimize: bool, names: &[&str]) -> (Engine, weft_invariants::PointId) {
    let mut engine = Engine::new(Config {
        optimize,
        ..Config::default()
    });
    let vars = names.iter().map(|n| VarDecl::new(*n, Rep::Int)).collect();
    let id = engine.declare(PointDecl {
        name: "f():::ENTER".into(),
        function: "f".into(),
        kind: PointKind::Enter,
        vars,
    });
    (engine, id)
}

fn ints(values: &[i64]) -> Vec<Value> {
    values.iter().map(|&v| Value::Int(v)).collect()
}

#[test]
fn constants_get_no_invariants_until_they_change() {
    let (mut e, f) = engine(true, &["a", "b", "c"]);
    for _ in 0..10 {
        e.add_sample(f, &ints(&[1, 2, 3])).unwrap();
    }
    assert_eq!(e.live_invariants(), 0);
    e.add_sample(f, &ints(&[1, 2, 4])).unwrap();
    assert!(e.live_invariants() > 0);
    let report = e.finish();
    assert_eq!(&report.texts("f():::ENTER")[..2], ["a == 1", "b == 2"]);
}

#[test]
fn equal_variables_cost_one_leader() {
    let (mut three, f) = engine(true, &["x", "y", "z", "w"]);
    let (mut one, g) = engine(true, &["x", "w"]);
    for i in 0..50 {
        three.add_sample(f, &ints(&[i % 7, i % 7, i % 7, i % 5])).unwrap();
        one.add_sample(g, &ints(&[i % 7, i % 5])).unwrap();
    }
    assert_eq!(three.live_invariants(), one.live_invariants());
    let texts = three.finish();
    assert_eq!(&texts.texts("f():::ENTER")[..2], ["x == y", "x == z"]);
}

#[test]
fn suppressed_invariants_are_not_instantiated_until_released() {
    let (mut opt, f) = engine(true, &["x", "y"]);
    let (mut naive, g) = engine(false, &["x", "y"]);
    for i in 0..20 {
        opt.add_sample(f, &ints(&[i, i + 1 + i % 3])).unwrap();
        naive.add_sample(g, &ints(&[i, i + 1 + i % 3])).unwrap();
    }
    // x < y suppresses x <= y and x != y: the naive engine checks them.
    assert_eq!(naive.live_invariants() - opt.live_invariants(), 2);
    // x == y on one sample releases x <= y (x != y is falsified).
    opt.add_sample(f, &ints(&[5, 5])).unwrap();
    let texts = opt.finish();
    assert!(texts.texts("f():::ENTER").contains(&"x <= y"), "{texts}");
}
