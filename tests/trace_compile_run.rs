//! The trace monitor end to end: aspects/invariants.lara woven into small
//! programs with the weft binary, built with strict warnings, run, and
//! their trace files read back: the programs behave as before, every
//! sample holds the values the program computed, and what is one step from
//! a function's variables (struct members through pointers, strings,
//! arrays of known length, arrays as long as the block the program
//! allocated) gives the invariants the code makes true; a pointer to
//! unmapped memory gives a missing value, not a crash.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use weft::monitor::trace::{PointKind, TraceFile, read_trace};
use weft_invariants::Value;

mod program_support;
mod weft_support;

const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-pedantic"];

/// Weaves the invariants aspect into `tests/fixtures/trace/<name>` and
/// builds plain and woven programs in `dir`.
fn build(dir: &Path, name: &str) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/trace")
        .join(name);
    let woven = dir.join("woven");
    weft_support::weave("invariants.lara", &[], &woven, &fixture);
    for (exe, source) in [("plain", fixture.clone()), ("traced", woven.join(name))] {
        program_support::gcc(&[STRICT, &["-O2"]].concat(), &source, &dir.join(exe));
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
        .map(|s| (s.nonce, s.values.iter().map(signed).collect()))
        .collect()
}

/// What stands for a missing value (the `*p` of a null `p`) in [`signed`].
const MISSING: i64 = i64::MIN;

/// An integer or an address, as a signed number.
fn signed(value: &Value) -> i64 {
    match value {
        Value::Int(i) => *i,
        Value::Pointer(p) => *p as i64,
        Value::Missing => MISSING,
        other => panic!("not an integer: {other:?}"),
    }
}

#[test]
fn a_traced_program_behaves_as_before_and_records_every_value() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "calls.c");
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
    // p, *p, by: what p points to is missing exactly when p is null.
    assert!(
        bump.values().all(|v| (v[0] == 0) == (v[1] == MISSING)),
        "{bump:?}"
    );
}

#[test]
fn hot_points_are_sampled_by_the_documented_policy_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "calls.c");
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
    build(dir.path(), "calls.c");
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
    build(dir.path(), "calls.c");
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

/// The reach.c fixture built and run plain and traced (every sample kept):
/// the same output; returns the trace directory.
fn reach_run(dir: &Path) -> std::path::PathBuf {
    build(dir, "reach.c");
    let all = [("WEFT_TRACE_SAMPLING", "all")];
    let (plain, traced) = (
        run(dir, "plain", &["20"], &all),
        run(dir, "traced", &["20"], &all),
    );
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        String::from_utf8_lossy(&traced.stdout)
    );
    assert!(plain.status.success() && traced.status.success(), "{traced:?}");
    dir.join("out")
}

#[test]
fn members_strings_and_arrays_are_traced_and_give_their_invariants() {
    let dir = tempfile::tempdir().unwrap();
    let out = reach_run(dir.path());
    let learned = weft_support::command()
        .args(["invariants", "learn"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        learned.status.success(),
        "{}",
        String::from_utf8_lossy(&learned.stderr)
    );
    let text = String::from_utf8_lossy(&learned.stdout);
    let at = |point: &str| -> Vec<&str> {
        let start = text
            .find(&format!("{point}\n"))
            .unwrap_or_else(|| panic!("no {point} in\n{text}"));
        // A point's invariants follow its name, up to the next rule.
        let lines = text[start..].lines().skip(1);
        lines.take_while(|l| !l.starts_with("====")).collect()
    };
    let expect = |point: &str, wanted: &[&str]| {
        let found = at(point);
        for w in wanted {
            assert!(found.contains(w), "{point} lacks `{w}`: {found:#?}");
        }
    };
    // Members through a pointer, a char array member as a string, an
    // array member with its size.
    expect(
        "reach.c.push():::ENTER",
        &[
            "s->cap == 4",
            "s->tag == \"stk\"",
            "s->next == null",
            "s->cells[] elements >= 0",
            "s->len <= s->cap",
            "s->cap == size(s->cells[])",
        ],
    );
    // Post-state against the entry's values, read through the pointer.
    expect(
        "reach.c.push():::EXIT35",
        &["s->len == return", "s->len == orig(s->len) + 1"],
    );
    expect(
        "reach.c.push():::EXIT33",
        &["s->cells[] sorted by <", "return == -1"],
    );
    // A global array of known length, and a global struct's members.
    expect(
        "reach.c.divisors():::ENTER",
        &["primes[] == [2, 3, 5, 7, 11, 13]", "size(primes[]) == 6"],
    );
    expect("reach.c.divisors():::EXIT", &["primes[] == orig(primes[])"]);
    expect("reach.c.main():::EXIT", &["stats.calls == 21"]);
    // The string a `char *` points to; null in a third of the calls.
    expect("reach.c.greet():::ENTER", &["*name one of { \"ada\", \"bob\" }"]);
}

#[test]
fn a_pointer_to_unmapped_memory_gives_missing_members() {
    let dir = tempfile::tempdir().unwrap();
    reach_run(dir.path());
    let trace = &traces(dir.path())[0];
    let peek = trace
        .points
        .iter()
        .position(|p| p.function == "peek" && p.kind == PointKind::Enter)
        .unwrap();
    let len = trace.points[peek]
        .vars
        .iter()
        .position(|v| v.name == "s->len")
        .unwrap();
    let seen: Vec<&Value> = trace
        .samples
        .iter()
        .filter(|s| s.point == peek)
        .map(|s| &s.values[len])
        .collect();
    assert_eq!(
        seen,
        [&Value::Int(0), &Value::Missing],
        "peek(&s, 1), then peek(gone, 0)"
    );
}

/// The values of the array var `name` at `function`'s entry samples, with
/// the value of the scalar var `count` beside each (missing: `None`).
fn entry_arrays(
    trace: &TraceFile,
    function: &str,
    name: &str,
    count: Option<&str>,
) -> Vec<(Option<Vec<i64>>, i64)> {
    let point = trace
        .points
        .iter()
        .position(|p| p.function == function && p.kind == PointKind::Enter)
        .unwrap_or_else(|| panic!("no entry of {function}"));
    let vars = &trace.points[point].vars;
    let array = vars
        .iter()
        .position(|v| v.name == name && v.layout == weft::monitor::trace::spec::Layout::Seq)
        .unwrap_or_else(|| panic!("no array {name} at {function}: {vars:?}"));
    let count = count.map(|c| vars.iter().position(|v| v.name == c).unwrap());
    trace
        .samples
        .iter()
        .filter(|s| s.point == point)
        .map(|s| {
            let elements = match &s.values[array] {
                Value::IntSeq(e) => Some(e.clone()),
                Value::Missing => None,
                other => panic!("not an integer array: {other:?}"),
            };
            (elements, count.map_or(0, |c| signed(&s.values[c])))
        })
        .collect()
}

#[test]
fn arrays_behind_pointers_are_as_long_as_the_block_the_program_allocated() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "heap.c");
    let all = [("WEFT_TRACE_SAMPLING", "all")];
    let (plain, traced) = (
        run(dir.path(), "plain", &["30"], &all),
        run(dir.path(), "traced", &["30"], &all),
    );
    assert!(plain.status.success() && traced.status.success(), "{traced:?}");
    assert_eq!(plain.stdout, traced.stdout);
    let trace = &traces(dir.path())[0];
    // malloc(n), calloc(n), realloc to 2n, in 30 rounds whose blocks are
    // freed and their addresses handed out again with other sizes; then
    // 300 blocks live at once.
    let totals = entry_arrays(trace, "total", "a", Some("n"));
    assert_eq!(totals.len(), 90 + 300);
    for (elements, n) in &totals {
        let elements = elements.as_ref().expect("a block's start is a sequence");
        assert_eq!(elements.len() as i64, *n, "{elements:?}");
    }
    // calloc's blocks hold i * i (the others start at the round, >= 1).
    let calloced = |e: &Option<Vec<i64>>| {
        e.as_ref()
            .is_some_and(|e| e.iter().zip(0..).all(|(x, i)| *x == i * i))
    };
    assert_eq!(totals.iter().filter(|(e, _)| calloced(e)).count(), 30);
    // Into the middle of a block, or a freed block: no sequence.
    for function in ["middle", "gone"] {
        let seen = entry_arrays(trace, function, "a", None);
        assert_eq!(seen.len(), 30);
        assert!(seen.iter().all(|(e, _)| e.is_none()), "{function}: {seen:?}");
    }
    let learned = weft_support::command()
        .args(["invariants", "learn"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&learned.stdout);
    let entry = text
        .split("====")
        .find(|p| p.contains("heap.c.total():::ENTER"))
        .unwrap_or_else(|| panic!("{text}"));
    for wanted in ["size(a[]) == n", "a[] sorted by <"] {
        assert!(entry.lines().any(|l| l == wanted), "lacks `{wanted}`:\n{entry}");
    }
    // A global pointer to a block.
    let lookup = text
        .split("====")
        .find(|p| p.contains("heap.c.lookup():::ENTER"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        lookup.lines().any(|l| l == "squares[] == [0, 1, 4, 9, 16, 25]"),
        "{lookup}"
    );
}
