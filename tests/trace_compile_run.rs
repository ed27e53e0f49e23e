//! The trace monitor end to end: aspects/invariants.lara woven into a small
//! program with the weft binary, built with strict warnings, run, and its
//! trace files read back: the program behaves as before, and every sample
//! holds the values the program computed.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use weft::monitor::trace::{PointKind, TraceFile, read_trace};

const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-pedantic"];

/// Weaves the invariants aspect into the fixture and builds plain and woven
/// programs in `dir`.
fn build(dir: &Path) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace/calls.c");
    let woven = dir.join("woven");
    let weave = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["weave", "--aspect"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/invariants.lara"))
        .arg("--output")
        .arg(&woven)
        .arg(&fixture)
        .output()
        .unwrap();
    assert!(
        weave.status.success(),
        "{}",
        String::from_utf8_lossy(&weave.stderr)
    );
    for (exe, source) in [("plain", fixture.clone()), ("traced", woven.join("calls.c"))] {
        let gcc = Command::new("gcc")
            .args(STRICT)
            .arg("-O2")
            .arg("-o")
            .arg(dir.join(exe))
            .arg(&source)
            .output()
            .unwrap();
        assert!(
            gcc.status.success(),
            "{exe}: {}",
            String::from_utf8_lossy(&gcc.stderr)
        );
    }
}

fn run(dir: &Path, exe: &str, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    Command::new(dir.join(exe))
        .args(args)
        .env("WEFT_OUT", dir.join("out"))
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn traces(dir: &Path) -> Vec<TraceFile> {
    let files = weft::monitor::trace::record::FORMAT
        .files_in(&dir.join("out"))
        .unwrap();
    files
        .iter()
        .map(|f| read_trace(f).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Samples of `function`'s `kind` points, by nonce, as signed values.
fn samples(trace: &TraceFile, function: &str, kind: PointKind) -> HashMap<u64, Vec<i64>> {
    trace
        .samples
        .iter()
        .filter(|s| {
            let p = &trace.points[s.point];
            p.function == function && p.kind == kind
        })
        .map(|s| (s.nonce, s.values.iter().map(|&v| v as i64).collect()))
        .collect()
}

#[test]
fn a_traced_program_behaves_as_before_and_records_every_value() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let plain = run(dir.path(), "plain", &["4"], &[]);
    let traced = run(dir.path(), "traced", &["4"], &[]);
    assert_eq!(plain.stdout, traced.stdout);
    assert_eq!(plain.status.code(), traced.status.code());
    let files = traces(dir.path());
    assert_eq!(files.len(), 1, "one unit, one process");
    let trace = &files[0];
    assert_eq!(trace.unit, "calls.c");
    let enters = samples(trace, "add", PointKind::Enter);
    let exits = samples(trace, "add", PointKind::Exit);
    assert_eq!(enters.len(), 4);
    for (nonce, exit) in &exits {
        let enter = &enters[nonce];
        // exit: a, b, return; return == orig(a) + orig(b)
        assert_eq!(exit[2], enter[0] + enter[1], "nonce {nonce}");
    }
    let bump = samples(trace, "bump", PointKind::Enter);
    let nulls = bump.values().filter(|v| v[0] == 0).count();
    assert_eq!(
        (bump.len(), nulls),
        (8, 4),
        "bump(&s, 1) and bump(NULL, 2), four times"
    );
}

#[test]
fn hot_points_are_sampled_by_the_documented_policy_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    run(dir.path(), "traced", &["1"], &[]);
    let sampled = samples(&traces(dir.path())[0], "twice", PointKind::Enter).len();
    // 5,000 calls: the first 100, one in 10 to 1,000, one in 100 after.
    assert_eq!(sampled, 100 + 90 + 40);
    std::fs::remove_dir_all(dir.path().join("out")).unwrap();
    run(dir.path(), "traced", &["1"], &[("WEFT_TRACE_SAMPLING", "all")]);
    let trace = &traces(dir.path())[0];
    assert_eq!(samples(trace, "twice", PointKind::Enter).len(), 5000);
    assert_eq!(samples(trace, "twice", PointKind::Exit).len(), 5000);
}

#[test]
fn a_crash_and_a_fork_leave_readable_traces() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let aborted = run(dir.path(), "traced", &["3", "abort"], &[]);
    assert!(!aborted.status.success());
    let files = traces(dir.path());
    assert_eq!(samples(&files[0], "twice", PointKind::Exit).len(), 230);
    std::fs::remove_dir_all(dir.path().join("out")).unwrap();
    let forked = run(dir.path(), "traced", &["3", "fork"], &[]);
    assert!(forked.status.success());
    let files = traces(dir.path());
    assert_eq!(files.len(), 2, "the child writes a file of its own");
    let child = files
        .iter()
        .find(|f| samples(f, "twice", PointKind::Enter).is_empty())
        .unwrap();
    let adds: Vec<Vec<i64>> = samples(child, "add", PointKind::Exit).into_values().collect();
    assert_eq!(adds, vec![vec![100, 1, 101]]);
}

#[test]
fn a_cut_trace_is_an_error_at_its_offset_or_a_shorter_trace() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    run(dir.path(), "traced", &["2"], &[]);
    let path = &weft::monitor::trace::record::FORMAT
        .files_in(&dir.path().join("out"))
        .unwrap()[0];
    let data = std::fs::read(path).unwrap();
    let whole = weft::monitor::trace::record::parse(&data).unwrap();
    let start = 4096;
    for cut in [10, 70, start + 3, start + 20, start + 100] {
        match weft::monitor::trace::record::parse(&data[..cut]) {
            Err(e) => assert!(e.to_string().starts_with("at byte "), "{e}"),
            Ok(t) => assert!(t.samples.len() < whole.samples.len(), "cut at {cut}"),
        }
    }
    let e = weft::monitor::trace::record::parse(&data[..start + 20]).unwrap_err();
    assert!(e.reason.contains("truncated"), "{e}");
}
