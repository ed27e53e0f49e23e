//! What a function writes before it reads is not traced, end to end:
//! aspects/invariants.lara woven into tests/fixtures/trace/written.c (with
//! and without branch points), built with strict warnings, run, and read
//! back. A buffer filled by index, by pointer arithmetic, by `strcpy` or by
//! a function of the file, and the members of a fresh heap block set before
//! use, are left out at every point of the function that fills them; a
//! buffer or member read first (`count`, `upcase`, `strcat`'s destination,
//! `j->prio = j->prio + 1`) is traced with the program's values.

mod program_support;
mod weft_support;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use weft::monitor::trace::{PointKind, TraceFile, read_trace};
use weft_invariants::Value;

const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-pedantic", "-O2"];

/// The fixture woven with `args`, built plain and woven, run: the same
/// output; the woven run's trace.
fn traced(dir: &Path, args: &[&str]) -> TraceFile {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace/written.c");
    let woven = dir.join("woven");
    weft_support::weave("invariants.lara", args, &woven, &fixture);
    let run = |exe: &str, source: &Path| {
        program_support::gcc(STRICT, source, &dir.join(exe));
        let out = Command::new(dir.join(exe))
            .arg("3")
            .env("WEFT_OUT", dir.join("out"))
            .env("WEFT_TRACE_SAMPLING", "all")
            .output()
            .unwrap();
        assert!(out.status.success(), "{exe}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let plain = run("plain", &fixture);
    assert_eq!(
        plain,
        "abcd kl even 3 Abcz 4 0 1\nabcd kl odd 3 Abcz 4 1 2\nabcd kl even 3 Abcz 4 2 3\n"
    );
    assert_eq!(run("traced", &woven.join("written.c")), plain);
    let files = weft::monitor::trace::record::FORMAT
        .files_in(&dir.join("out"))
        .unwrap();
    assert_eq!(files.len(), 1, "one unit, one process");
    read_trace(&files[0]).unwrap_or_else(|e| panic!("{e}"))
}

/// The variables any point of `function` of `kind` records.
fn vars(trace: &TraceFile, function: &str, kind: PointKind) -> BTreeSet<String> {
    trace
        .points
        .iter()
        .filter(|p| p.function == function && p.kind == kind)
        .flat_map(|p| p.vars.iter().map(|v| v.name.clone()))
        .collect()
}

/// The values `var` takes at `function`'s entries, in order.
fn at_entry(trace: &TraceFile, function: &str, var: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    for sample in &trace.samples {
        let point = &trace.points[sample.point];
        if point.function == function && point.kind == PointKind::Enter {
            let at = point.vars.iter().position(|v| v.name == var);
            let at = at.unwrap_or_else(|| panic!("{function} has no {var}: {:?}", point.vars));
            seen.push(sample.values[at].clone());
        }
    }
    seen
}

fn strs(values: &[&str]) -> Vec<Value> {
    values.iter().map(|s| Value::Str(s.to_string())).collect()
}

fn check(trace: &TraceFile) {
    for function in ["fill_index", "fill_arith", "fill_libc", "fill_user"] {
        for kind in [PointKind::Enter, PointKind::Exit] {
            let seen = vars(trace, function, kind);
            assert!(seen.contains("s"), "{function} {kind:?} has a point: {seen:?}");
            assert!(
                !seen.contains("*s"),
                "{function} {kind:?} reads what it fills: {seen:?}"
            );
        }
    }
    // The branch points (when woven) record `j` but not the members it sets.
    let all: BTreeSet<String> = [PointKind::Enter, PointKind::Exit, PointKind::Inner]
        .into_iter()
        .flat_map(|k| vars(trace, "new_job", k))
        .collect();
    assert!(!all.contains("j->id") && !all.contains("j->prio"), "{all:?}");
    // Read first: traced, with the program's values.
    assert_eq!(at_entry(trace, "count", "*s"), strs(&["Abcz"; 3]));
    assert_eq!(at_entry(trace, "upcase", "*s"), strs(&["abc"; 3]));
    assert_eq!(at_entry(trace, "append", "*s"), strs(&["Abc"; 3]));
    assert_eq!(at_entry(trace, "bump", "j->prio"), [0, 1, 2].map(Value::Int));
}

#[test]
fn what_a_function_fills_is_not_traced_at_its_entry_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    check(&traced(dir.path(), &[]));
}

#[test]
fn what_a_function_fills_is_not_traced_at_its_branch_points() {
    let dir = tempfile::tempdir().unwrap();
    let trace = traced(dir.path(), &["--arg", "traceBranches=true"]);
    check(&trace);
    assert!(
        vars(&trace, "new_job", PointKind::Inner).contains("j"),
        "new_job's branch points record j"
    );
}
