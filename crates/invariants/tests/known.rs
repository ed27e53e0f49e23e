//! Hand-written traces whose invariants are known exactly.

use weft_invariants::{
    Config, Engine, EngineError, KindSet, PointDecl, PointKind, Rep, Report, Value, VarDecl,
};

fn point(name: &str, kind: PointKind, vars: Vec<VarDecl>) -> PointDecl {
    PointDecl {
        name: name.into(),
        function: name.split('(').next().unwrap().into(),
        kind,
        vars,
    }
}

fn learn(decl: PointDecl, samples: impl IntoIterator<Item = Vec<Value>>) -> Report {
    let mut engine = Engine::new(Config::default());
    let id = engine.declare(decl);
    for s in samples {
        engine.add_sample(id, &s).unwrap();
    }
    engine.finish()
}

fn int(name: &str) -> VarDecl {
    VarDecl::new(name, Rep::Int)
}

fn ints(values: &[i64]) -> Vec<Value> {
    values.iter().map(|&v| Value::Int(v)).collect()
}

#[test]
fn sorted_arrays_and_their_length() {
    let report = learn(
        point(
            "sum(int*, int):::ENTER",
            PointKind::Enter,
            vec![VarDecl::new("a", Rep::IntSeq), int("n")],
        ),
        (0..40).map(|i: i64| {
            let a: Vec<i64> = (0..i % 4 + 1).map(|k| 10 * k + i % 10).collect();
            vec![Value::Int(a.len() as i64), Value::IntSeq(a)]
                .into_iter()
                .rev()
                .collect()
        }),
    );
    assert_eq!(
        report.texts("sum(int*, int):::ENTER"),
        [
            "size(a[]) == n",
            "a[] elements >= 0",
            "a[] sorted by <",
            "size(a[]) >= 1",
            "size(a[]) <= 4",
        ]
    );
}

#[test]
fn descending_arrays_with_repeats_are_sorted_by_greater_equal() {
    let report = learn(
        point(
            "f():::ENTER",
            PointKind::Enter,
            vec![VarDecl::new("a[]", Rep::IntSeq)],
        ),
        (0..10).map(|i: i64| vec![Value::IntSeq(vec![i + 2, i, i, -1])]),
    );
    let texts = report.texts("f():::ENTER");
    assert!(texts.contains(&"a[] sorted by >="), "{texts:?}");
    assert!(!texts.contains(&"a[] sorted by >"), "{texts:?}");
    assert!(texts.contains(&"size(a[]) == 4"), "{texts:?}");
}

#[test]
fn linear_relations() {
    let report = learn(
        point(
            "f(int):::ENTER",
            PointKind::Enter,
            vec![int("x"), int("y"), int("z")],
        ),
        (0..30).map(|i: i64| {
            let (x, y) = (i % 7, (i * i) % 11);
            ints(&[x, 2 * x + 3, 3 * x - y + 1])
        }),
    );
    let texts = report.texts("f(int):::ENTER");
    assert!(texts.contains(&"y == 2 * x + 3"), "{texts:?}");
    assert!(texts.contains(&"x < y"), "{texts:?}");
    // z depends on x and the unobserved (i*i)%11, so no relation holds.
    assert!(
        texts.iter().all(|t| !t.contains('z') || !t.contains('x')),
        "{texts:?}"
    );
}

#[test]
fn ternary_relation() {
    let report = learn(
        point(
            "f(int, int):::ENTER",
            PointKind::Enter,
            vec![int("x"), int("y"), int("z")],
        ),
        (0..30).map(|i: i64| {
            let (x, y) = (i % 7, (i * i) % 11);
            ints(&[x, y, x - 2 * y + 5])
        }),
    );
    let texts = report.texts("f(int, int):::ENTER");
    assert!(texts.contains(&"z == x - 2 * y + 5"), "{texts:?}");
}

#[test]
fn constants_one_of_sets_and_equal_variables() {
    let report = learn(
        point(
            "g():::ENTER",
            PointKind::Enter,
            vec![int("c"), int("k"), int("x"), VarDecl::new("s", Rep::Str)],
        ),
        (0..20).map(|i: i64| {
            let x = [1, 6, 9][i as usize % 3];
            let mut v = ints(&[5, x, x]);
            v.push(Value::Str(if i % 2 == 0 { "on" } else { "off" }.into()));
            v
        }),
    );
    assert_eq!(
        report.texts("g():::ENTER"),
        [
            "k == x",
            "c == 5",
            "k one of { 1, 6, 9 }",
            r#"s one of { "off", "on" }"#,
            "c != k"
        ]
    );
}

#[test]
fn orig_relations_at_the_aggregate_exit() {
    // Every kind, residues too (Daikon's defaults leave them out).
    let report = decrements(Config {
        off: KindSet::none(),
        ..Config::default()
    });
    let names: Vec<&str> = report.points.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["dec(int):::EXIT", "dec(int):::EXIT3", "dec(int):::EXIT5"]);
    assert_eq!(
        report.texts("dec(int):::EXIT"),
        [
            "return >= -1",
            "return != 3 (mod 6)",
            "n >= -3",
            "n != 1 (mod 6)",
            "orig(n) >= -2",
            "orig(n) != 2 (mod 6)",
            "return > n",
            "return == n + 2",
            "return > orig(n)",
            "return == orig(n) + 1",
            "n < orig(n)",
            "n == orig(n) - 1",
        ]
    );
    assert_eq!(
        report.texts("dec(int):::EXIT3"),
        [
            "return one of { -1, 0, 1 }",
            "n one of { -3, -2, -1 }",
            "orig(n) one of { -2, -1, 0 }"
        ]
    );
    // Odd values only; the relations are not repeated from the aggregate.
    assert_eq!(
        report.texts("dec(int):::EXIT5"),
        ["return == 0 (mod 2)", "n == 0 (mod 2)", "orig(n) == 1 (mod 2)"]
    );
}

/// `dec(int)`'s two exits over 40 calls, learned with `config`.
fn decrements(config: Config) -> Report {
    let mut engine = Engine::new(config);
    let exit = |n: u32| {
        point(
            &format!("dec(int):::EXIT{n}"),
            PointKind::Exit,
            vec![int("return"), int("n"), int("orig(n)")],
        )
    };
    let early = engine.declare(exit(3));
    let late = engine.declare(exit(5));
    for i in 0..40i64 {
        let orig = if i % 2 == 0 { i % 3 - 2 } else { i };
        let id = if orig < 1 { early } else { late };
        engine.add_sample(id, &ints(&[orig + 1, orig - 1, orig])).unwrap();
    }
    engine.finish()
}

#[test]
fn kinds_daikon_leaves_out_are_learned_only_when_asked() {
    // Daikon's defaults leave out Modulus, NonModulus and Even.
    let texts = |config| -> Vec<String> {
        let report = decrements(config);
        report
            .texts("dec(int):::EXIT")
            .into_iter()
            .map(String::from)
            .collect()
    };
    let residues = |texts: &[String]| texts.iter().filter(|t| t.contains("(mod")).count();
    let default = texts(Config::default());
    assert_eq!(residues(&default), 0, "{default:?}");
    assert!(default.contains(&"return == n + 2".to_string()), "{default:?}");
    let all = texts(Config {
        off: KindSet::none(),
        ..Config::default()
    });
    assert_eq!(residues(&all), 3, "{all:?}");
    assert_eq!(all.len(), default.len() + 3);
    assert!(all.contains(&"return != 3 (mod 6)".to_string()), "{all:?}");
    // Any kind can be left out by name.
    let no_linear = texts(Config {
        off: KindSet::parse(["LinearBinary"]).unwrap(),
        ..Config::default()
    });
    assert!(!no_linear.iter().any(|t| t.contains(" + ")), "{no_linear:?}");
}

#[test]
fn pointers_strings_and_floats() {
    let report = learn(
        point(
            "h():::ENTER",
            PointKind::Enter,
            vec![
                VarDecl::new("p", Rep::Pointer),
                VarDecl::new("q", Rep::Pointer),
                VarDecl::new("name", Rep::Str),
                VarDecl::new("ratio", Rep::Float),
            ],
        ),
        (0..30u64).map(|i| {
            vec![
                Value::Pointer(0x1000 + 16 * (i % 4)),
                Value::Pointer(0),
                Value::Str("gzip".into()),
                Value::Float([0.5, 1.5, 2.0][i as usize % 3]),
            ]
        }),
    );
    assert_eq!(
        report.texts("h():::ENTER"),
        [
            "q == null",
            r#"name == "gzip""#,
            "p != null",
            "ratio one of { 0.5, 1.5, 2.0 }"
        ]
    );
}

#[test]
fn missing_values_only_hide_their_sample() {
    let report = learn(
        point("m():::ENTER", PointKind::Enter, vec![int("x"), int("y")]),
        (0..20i64).map(|i| {
            let x = if i % 5 == 0 { Value::Missing } else { Value::Int(7) };
            vec![x, Value::Int(i % 4)]
        }),
    );
    let texts = report.texts("m():::ENTER");
    assert_eq!(texts[0], "x == 7", "{texts:?}");
    assert!(texts.contains(&"y >= 0"), "{texts:?}");
}

#[test]
fn too_few_samples_justify_nothing_but_one_of() {
    let report = learn(
        point("f():::ENTER", PointKind::Enter, vec![int("x"), int("y")]),
        [ints(&[1, 2]), ints(&[3, 5]), ints(&[4, 9])],
    );
    assert_eq!(
        report.texts("f():::ENTER"),
        ["x one of { 1, 3, 4 }", "y one of { 2, 5, 9 }"]
    );
}

#[test]
fn comparability_keeps_unrelated_variables_apart() {
    let vars = vec![
        int("len").comparable(1),
        int("count").comparable(1),
        int("year").comparable(2),
    ];
    let report = learn(
        point("f():::ENTER", PointKind::Enter, vars),
        (0..30i64).map(|i| ints(&[i + 10, i, i + 100])),
    );
    let texts = report.texts("f():::ENTER");
    assert!(texts.contains(&"len == count + 10"), "{texts:?}");
    assert!(
        texts.iter().all(|t| !t.contains("year") || !t.contains("count")),
        "{texts:?}"
    );
}

#[test]
fn samples_that_do_not_fit_are_refused() {
    let mut engine = Engine::new(Config::default());
    let f = engine.declare(point("f():::ENTER", PointKind::Enter, vec![int("x")]));
    assert!(matches!(
        engine.add_sample(f, &[]),
        Err(EngineError::Arity {
            expected: 1,
            found: 0,
            ..
        })
    ));
    let err = engine.add_sample(f, &[Value::Float(1.0)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "f():::ENTER: variable x is Int but the sample gives Float"
    );
    assert!(engine.add_sample(f, &[Value::Missing]).is_ok());
}

#[test]
fn the_report_serialises_to_json() {
    let report = learn(
        point("f():::ENTER", PointKind::Enter, vec![int("x")]),
        [ints(&[1])],
    );
    let json = report.to_json();
    for field in [
        r#""name": "f():::ENTER""#,
        r#""kind": "Constant""#,
        r#""text": "x == 1""#,
        r#""samples": 1"#,
    ] {
        assert!(json.contains(field), "{field} in {json}");
    }
}
