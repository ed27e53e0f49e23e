//! Appendix A strategies run unchanged (but for the noted details) against a
//! mock program: the language expresses all of them.

mod aspect_support;
mod engine_support;

use engine_support::{MockHost, ROOT, s};
use weft::joinpoint::Value;

fn load(name: &str) -> weft::aspect::Module {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engine_strategies")
        .join(name);
    weft::aspect::load(&path, &weft::Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn flags(primitive: bool) -> Vec<(&'static str, Value)> {
    vec![
        ("is_primitive", Value::Bool(primitive)),
        ("is_array", Value::Bool(false)),
        ("is_pointer", Value::Bool(false)),
        ("is_struct", Value::Bool(false)),
        ("in_loop_header", Value::Bool(false)),
    ]
}

fn with(mut attrs: Vec<(&'static str, Value)>, more: &[(&'static str, Value)]) -> Vec<(&'static str, Value)> {
    attrs.extend(more.iter().cloned());
    attrs
}

/// `int f(int a, struct s *p) { x = a; return x; }` and
/// `int main() { int y; y = f(1); return 0; }`.
fn program() -> MockHost {
    let mut h = MockHost::new();
    let file = h.add(ROOT, "file", &[("name", s("t.c"))]);
    let f = h.add(file, "function", &[("name", s("f"))]);
    h.add(f, "param", &with(flags(true), &[("name", s("a"))]));
    h.add(f, "param", &with(flags(false), &[("name", s("p"))]));
    let body = h.add(f, "body", &[]);
    h.add(body, "first_stmt", &[("name", s("f_first"))]);
    h.add(
        f,
        "var",
        &with(flags(true), &[("name", s("x")), ("reference", s("write"))]),
    );
    let ret = h.add(f, "return", &[("name", s("f_return"))]);
    h.add(
        ret,
        "var",
        &with(flags(true), &[("name", s("x")), ("reference", s("read"))]),
    );
    let main = h.add(file, "function", &[("name", s("main"))]);
    let body = h.add(main, "body", &[]);
    h.add(body, "first_stmt", &[("name", s("main_first"))]);
    h.add(
        main,
        "var",
        &with(flags(true), &[("name", s("y")), ("reference", s("write"))]),
    );
    h
}

#[test]
fn ascv3_instruments_parameters_writes_and_returns() {
    let module = load("ascv3.lara");
    let mut h = program();
    let report = aspect_support::run_aspect(&module, &[], &mut h).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.warnings.is_empty());
    let log = h.log.join("\n");
    for expected in [
        "perform SingleDeclarator[] on program#0",
        "perform NormalizeReturn[] on program#0",
        "before f_first: range_update(&(__r_a[ 0 ]), a); /* param */",
        "after x: range_update(&(__r_a[ 1 ]), x);",
        "after y: range_update(&(__r_a[ 2 ]), y);",
        "before f_return: range_update(&(__r_a[ 3 ]), x);",
        "before f: #include \"range.h\"",
        "before f: Range __r_a[ 4 ];",
        "before main_first: range_init(__r_a, 4);\natexit(print_ranges_to_file);",
    ] {
        assert!(log.contains(expected), "missing {expected:?} in\n{log}");
    }
    assert!(!log.contains("), p)"), "pointer parameter instrumented:\n{log}");
    let table = h
        .log
        .iter()
        .find(|l| l.starts_with("before main: void print_ranges_to_file"))
        .unwrap();
    assert!(table.contains("fprintf(file, \"4\\n\");"), "{table}");
    assert!(table.contains("fprintf(file, \"v#x#1\");"), "{table}");
    assert!(table.contains("__r_a[3].min, __r_a[3].max"), "{table}");
}

fn reports() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gzfan_in.report"),
        r#"{"f#a": 3, "f#b": 1, "main#c": 5}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("gzfreq.report"),
        r#"{"f#a": 2, "f#b": 50, "main#d": 49, "main#c": 0, "total": 100}"#,
    )
    .unwrap();
    dir
}

fn run_choice(file: &str, dir: &std::path::Path) -> Vec<String> {
    let module = load(file);
    let args = vec![
        ("reportDir".to_string(), format!("{}/", dir.display())),
        ("reportName".to_string(), "gz".to_string()),
    ];
    let report =
        aspect_support::run_aspect(&module, &args, &mut MockHost::new()).unwrap_or_else(|e| panic!("{e}"));
    report.printed
}

#[test]
fn combor_takes_the_union_and_comband_the_intersection() {
    let dir = reports();
    assert_eq!(
        run_choice("combor.lara", dir.path()),
        vec![r#"["f#a", "f#b", "main#c", "main#d"]"#]
    );
    assert_eq!(run_choice("comband.lara", dir.path()), vec![r#"["f#a"]"#]);
}
