//! The scalar a pointer points to (`*year` for `int *year`), traced end to
//! end: aspects/invariants.lara woven into tests/fixtures/trace/deref.c,
//! built with strict warnings in two configurations where the pointed-to
//! typedef is an `int` or a struct, run, and read back. The compiler, not
//! weft, decides how the value is read: the woven file builds in both, and
//! the value is recorded where it is an `int`, missing where it is a struct.

mod program_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use weft::monitor::trace::{PointKind, TraceFile, read_trace};
use weft_invariants::Value;

const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-pedantic", "-O2"];

/// Weaves the invariants aspect into the fixture; returns the woven file.
fn weave(dir: &Path) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace/deref.c");
    let woven = dir.join("woven");
    weft_support::weave("invariants.lara", &[], &woven, &fixture);
    woven.join("deref.c")
}

/// Builds `source` as `exe` with `defines`, runs it with every sample kept
/// and its traces in `dir/<exe>.out`.
fn build_and_run(dir: &Path, exe: &str, source: &Path, defines: &[&str]) -> Output {
    program_support::gcc(&[STRICT, defines].concat(), source, &dir.join(exe));
    let run = Command::new(dir.join(exe))
        .arg("20")
        .env("WEFT_OUT", dir.join(format!("{exe}.out")))
        .env("WEFT_TRACE_SAMPLING", "all")
        .output()
        .unwrap();
    assert!(run.status.success(), "{exe}: {run:?}");
    run
}

/// The woven program in one configuration: the same output as the plain
/// one, and its only trace.
fn traced(dir: &Path, woven: &Path, config: &str, defines: &[&str]) -> TraceFile {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace/deref.c");
    let plain = build_and_run(dir, &format!("plain{config}"), &fixture, defines);
    let traced = build_and_run(dir, &format!("traced{config}"), woven, defines);
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        String::from_utf8_lossy(&traced.stdout)
    );
    let out = dir.join(format!("traced{config}.out"));
    let files = weft::monitor::trace::record::FORMAT.files_in(&out).unwrap();
    assert_eq!(files.len(), 1, "one unit, one process");
    read_trace(&files[0]).unwrap_or_else(|e| panic!("{e}"))
}

/// The values of `var` in the samples of `function`'s `kind` points, in
/// the order they were taken.
fn values<'a>(trace: &'a TraceFile, function: &str, kind: PointKind, var: &str) -> Vec<&'a Value> {
    let mut seen = Vec::new();
    for sample in &trace.samples {
        let point = &trace.points[sample.point];
        if point.function != function || point.kind != kind {
            continue;
        }
        let at = point.vars.iter().position(|v| v.name == var);
        let at = at.unwrap_or_else(|| panic!("{function} has no {var}: {:?}", point.vars));
        seen.push(&sample.values[at]);
    }
    seen
}

fn ints(from: i64, count: i64) -> Vec<Value> {
    (from..from + count).map(Value::Int).collect()
}

#[test]
fn a_typedef_that_is_a_struct_in_the_configuration_built_reads_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    let woven = weave(dir.path());
    let int = traced(dir.path(), &woven, "-int", &[]);
    let taken = values(&int, "take", PointKind::Exit, "*lock");
    assert_eq!(taken, ints(1, 20).iter().collect::<Vec<_>>(), "lock_t is an int");
    let structure = traced(dir.path(), &woven, "-struct", &["-DLOCK_IS_STRUCT"]);
    let taken = values(&structure, "take", PointKind::Exit, "*lock");
    assert_eq!(taken, vec![&Value::Missing; 20], "lock_t is a struct");
    // The pointer itself is traced as before.
    let locks = values(&structure, "take", PointKind::Enter, "lock");
    assert!(
        locks.iter().all(|v| matches!(v, Value::Pointer(p) if *p != 0)),
        "{locks:?}"
    );
}

#[test]
fn the_value_behind_a_pointer_is_traced_at_entry_and_exit_across_calls() {
    let dir = tempfile::tempdir().unwrap();
    let woven = weave(dir.path());
    let trace = traced(dir.path(), &woven, "", &[]);
    let entries = values(&trace, "next_year", PointKind::Enter, "*year");
    let exits = values(&trace, "next_year", PointKind::Exit, "*year");
    assert_eq!(entries, ints(2000, 20).iter().collect::<Vec<_>>());
    assert_eq!(exits, ints(2001, 20).iter().collect::<Vec<_>>());
    // A global pointer, and a pointer to a const double.
    let ticks = values(&trace, "tick", PointKind::Exit, "*tick_at");
    assert_eq!(ticks, ints(1, 20).iter().collect::<Vec<_>>());
    assert_eq!(
        values(&trace, "half", PointKind::Enter, "*x"),
        [&Value::Float(3.0)]
    );
    // Neither a `void *` nor a pointer to a pointer is read through, nor
    // a pointer the function only writes through.
    for (function, vars) in [("both", vec!["v", "pp"]), ("answer", vec!["out"])] {
        let point = trace.points.iter().find(|p| p.function == function).unwrap();
        let names: Vec<&str> = point.vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, vars);
    }
    let learned = weft_support::command()
        .args(["invariants", "learn"])
        .arg(dir.path().join("traced.out"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&learned.stdout);
    assert!(
        learned.status.success(),
        "{}",
        String::from_utf8_lossy(&learned.stderr)
    );
    for wanted in [
        "*year == orig(*year) + 1",
        "*tick_at == orig(*tick_at) + 1",
        "*lock == orig(*lock) + 1",
    ] {
        assert!(text.lines().any(|l| l == wanted), "no `{wanted}` in\n{text}");
    }
}

#[test]
fn null_and_unmapped_pointers_give_missing_values() {
    let dir = tempfile::tempdir().unwrap();
    let woven = weave(dir.path());
    let trace = traced(dir.path(), &woven, "", &[]);
    // peek(&year, 1), peek(NULL, 0), then peek(gone, 0) with gone unmapped.
    let seen = values(&trace, "peek", PointKind::Enter, "*p");
    assert_eq!(seen, [&Value::Int(2020), &Value::Missing, &Value::Missing]);
}
