//! Points inside functions end to end: aspects/invariants.lara woven (loop
//! heads on) into a program that exits through a noreturn call from inside
//! a function, built with `-O2 -Wall -Wextra -Werror` (a point that read a
//! local holding no value yet would fail it), run like the plain build; the
//! point before the call records the locals that hold a value there, a
//! loop head is sampled by the documented policy, and `weft invariants`
//! learns and checks there and exports them as Daikon `point`s.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use weft::monitor::trace::{PointKind, TraceFile, read_trace};
use weft_invariants::Value;

mod program_support;
mod weft_support;
use weft_support::{stdout, weft, weft_exits};

fn gcc(source: &Path, exe: &Path) {
    program_support::build_strict(source, exe, &["-std=c99", "-O2"]);
}

/// The fixture's plain and woven builds in `dir`.
fn build(dir: &Path) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inner");
    let woven = dir.join("woven");
    weft_support::weave(
        "invariants.lara",
        &["--arg", "traceLoopHeads=true"],
        &woven,
        &fixture,
    );
    gcc(&fixture.join("die.c"), &dir.join("plain"));
    gcc(&woven.join("inner/die.c"), &dir.join("traced"));
}

fn run(dir: &Path, exe: &str, arg: &str, out: &Path) -> Output {
    Command::new(dir.join(exe))
        .arg(arg)
        .env("WEFT_OUT", out)
        .output()
        .expect("runs")
}

fn trace(out: &Path) -> TraceFile {
    let files = weft::monitor::trace::record::FORMAT.files_in(out).unwrap();
    assert_eq!(files.len(), 1, "one unit, one process");
    read_trace(&files[0]).unwrap_or_else(|e| panic!("{e}"))
}

/// The samples of `function`'s inner points, with their variables' names.
fn inner(trace: &TraceFile, function: &str) -> Vec<(usize, Vec<String>, Vec<i64>)> {
    // Integers as they are; an address or a string (die's `why`) as 0.
    let int = |v: &Value| match v {
        Value::Int(i) => *i,
        Value::Pointer(_) | Value::Str(_) => 0,
        other => panic!("not an integer: {other:?}"),
    };
    trace
        .samples
        .iter()
        .filter(|s| {
            let p = &trace.points[s.point];
            p.function == function && p.kind == PointKind::Inner
        })
        .map(|s| {
            let p = &trace.points[s.point];
            let names = p.vars.iter().map(|v| v.name.clone()).collect();
            (p.line, names, s.values.iter().map(int).collect())
        })
        .collect()
}

#[test]
fn the_point_before_a_noreturn_call_records_the_assigned_locals() {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path());
    for arg in ["2", "5"] {
        let (plain, traced) = (
            run(tmp.path(), "plain", arg, &tmp.path().join("unused")),
            run(tmp.path(), "traced", arg, &tmp.path().join(format!("out{arg}"))),
        );
        assert_eq!(plain.stdout, traced.stdout, "argument {arg}");
        assert_eq!(plain.stderr, traced.stderr, "argument {arg}");
        assert_eq!(plain.status.code(), traced.status.code(), "argument {arg}");
    }
    // n = 5: total = 0 + 1 + 2 + 3 + 4 = 10 > 5, so check dies with 3.
    let died = trace(&tmp.path().join("out5"));
    let samples = inner(&died, "check");
    // Two points: the loop head, then the one before die() further down.
    let last = samples.iter().map(|s| s.0).max().expect("inner samples");
    let (before_die, head): (Vec<_>, Vec<_>) = samples.into_iter().partition(|s| s.0 == last);
    assert_eq!(before_die.len(), 1, "{before_die:?}");
    let (_, names, values) = &before_die[0];
    // `late` is assigned only under `if (n > 3)`: never read.
    assert_eq!(names, &["n", "doubled", "seen", "total", "i"]);
    assert_eq!(values, &[5, 10, 6, 10, 5]);
    // The loop head, once per iteration, before the body adds i.
    let totals: Vec<(i64, i64)> = head.iter().map(|s| (s.2[4], s.2[3])).collect();
    assert_eq!(totals, [(0, 0), (1, 0), (2, 1), (3, 3), (4, 6)]);
    // No point inside die() fires in the run that returns normally.
    let returned = trace(&tmp.path().join("out2"));
    assert!(inner(&returned, "die").is_empty());
    assert_eq!(inner(&died, "die").len(), 1, "before exit(code)");
}

#[test]
fn a_hot_loop_head_is_sampled_by_the_documented_policy() {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path());
    run(tmp.path(), "traced", "2", &tmp.path().join("out"));
    // 200,000 iterations in one invocation: all of the first 100, one in
    // 10 to 1,000, one in 100 to 10,000, one in 1,000 after.
    let head = inner(&trace(&tmp.path().join("out")), "spin");
    assert_eq!(head.len(), 100 + 90 + 90 + 190);
    // `bit` is assigned in the body only: never read at the head.
    assert_eq!(head[0].1, ["k", "odd", "j"]);
    let j: Vec<i64> = head
        .iter()
        .map(|s| s.2[s.1.iter().position(|n| n == "j").unwrap()])
        .collect();
    assert_eq!(&j[..3], &[0, 1, 2]);
    assert_eq!(j[100], 100);
    assert_eq!(j.last(), Some(&199_000));
}

fn runs(dir: &Path, args: &[&str]) -> Vec<PathBuf> {
    args.iter()
        .enumerate()
        .map(|(k, arg)| {
            let out = dir.join(format!("r{k}"));
            run(dir, "traced", arg, &out);
            out
        })
        .collect()
}

#[test]
fn invariants_are_learned_checked_and_exported_at_inner_points() {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path());
    let training = runs(tmp.path(), &["6", "6", "6"]);
    let learned = tmp.path().join("learned.json");
    let mut args = vec!["invariants", "learn", "-o", learned.to_str().unwrap()];
    args.extend(training.iter().map(|p| p.to_str().unwrap()));
    let (stdout, _) = weft_exits(0, &args);
    // Before die(): n = 6 and doubled = 12 in every run.
    let point = stdout
        .split("=====")
        .find(|block| block.contains("check():::POINT") && block.contains("total"))
        .unwrap_or_else(|| panic!("no inner point of check in:\n{stdout}"));
    assert!(point.contains("doubled == 12"), "{point}");

    // A run with n = 7 dies too, with other values there.
    let seven = tmp.path().join("seven");
    run(tmp.path(), "traced", "7", &seven);
    let learned_arg = learned.to_str().unwrap();
    let (report, _) = weft_exits(
        1,
        [
            "invariants",
            "check",
            "--learned",
            learned_arg,
            seven.to_str().unwrap(),
        ],
    );
    assert!(
        report
            .lines()
            .any(|l| l.contains(":::POINT") && l.contains("doubled == 12")),
        "{report}"
    );

    // Daikon's format names them `:::POINT<line>` with ppt-type point.
    let dtrace = tmp.path().join("all.dtrace");
    let mut args = vec!["invariants", "export", "-o", dtrace.to_str().unwrap()];
    args.extend(training.iter().map(|p| p.to_str().unwrap()));
    weft_exits(0, &args);
    let text = std::fs::read_to_string(&dtrace).unwrap();
    assert!(text.contains("die.c.check():::POINT"), "point names");
    assert!(text.contains("ppt-type point"));
    let again = weft_support::stdout(&weft(["invariants", "learn", dtrace.to_str().unwrap()]));
    let point_again = again
        .split("=====")
        .find(|block| block.contains("check():::POINT") && block.contains("total"))
        .unwrap_or_else(|| panic!("no inner point after the round trip:\n{again}"));
    assert_eq!(
        point_again.trim(),
        point.trim(),
        "the same invariants after the round trip"
    );
}

#[test]
fn a_point_no_training_run_reached_is_a_finding_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path());
    // n = 2 never reaches die(); n = 6 does.
    let training = runs(tmp.path(), &["2", "2"]);
    let learned = tmp.path().join("learned.json");
    let mut args = vec!["invariants", "learn", "-o", learned.to_str().unwrap()];
    args.extend(training.iter().map(|p| p.to_str().unwrap()));
    weft_exits(0, &args);
    let six = tmp.path().join("six");
    run(tmp.path(), "traced", "6", &six);
    let check = |mode: &str| {
        stdout(&weft([
            "invariants",
            "check",
            "--learned",
            learned.to_str().unwrap(),
            "--unseen-points",
            mode,
            six.to_str().unwrap(),
        ]))
    };
    let unseen = |report: &str| -> Vec<String> {
        report
            .lines()
            .filter(|l| l.contains("no training run reached it"))
            .map(|l| l.trim().split(':').next().unwrap_or("").to_string())
            .collect()
    };
    assert!(unseen(&check("off")).is_empty());
    let inner = unseen(&check("inner"));
    // Before die() in check, and before exit() in die.
    assert_eq!(inner, ["die.c.check()", "die.c.die()"], "{inner:?}");
    let all = check("all");
    assert!(all.contains("die.c.die():::ENTER: reached"), "{all}");
    weft_exits(
        2,
        [
            "invariants",
            "check",
            "--learned",
            learned.to_str().unwrap(),
            "--unseen-points",
            "some",
            six.to_str().unwrap(),
        ],
    );
}

#[test]
fn a_noreturn_call_under_a_header_that_differs_per_configuration_is_sampled() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inner_split");
    let woven = tmp.path().join("woven");
    weft_support::weave("invariants.lara", &[], &woven, &fixture);
    let source = woven.join("inner_split/split.c");
    // No brace goes after either header: the sample joins the call.
    let text = std::fs::read_to_string(&source).unwrap();
    assert!(text.contains(", exit(2));"), "{text}");
    for (flags, arg, code) in [
        (None, "300", 2),
        (Some("-DSTRICT"), "3", 2),
        (Some("-DSTRICT"), "300", 0),
    ] {
        let exe = tmp.path().join(format!("split{}", flags.unwrap_or("")));
        let strict: Vec<&str> = ["-std=c99", "-O2"].into_iter().chain(flags).collect();
        program_support::build_strict(&source, &exe, &strict);
        let dir = tmp.path().join(format!("out-{}-{arg}", flags.unwrap_or("")));
        let run = Command::new(&exe)
            .arg(arg)
            .env("WEFT_OUT", &dir)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(code), "{flags:?} {arg}");
        // limit = 256 + code % 2, recorded before exit(2) when it is called.
        let before_exit: Vec<_> = inner(&trace(&dir), "check").into_iter().map(|s| s.2).collect();
        let expected: Vec<Vec<i64>> = match code {
            2 => vec![vec![arg.parse().unwrap(), 256 + arg.parse::<i64>().unwrap() % 2]],
            _ => vec![],
        };
        assert_eq!(before_exit, expected, "{flags:?} {arg}");
    }
}

/// The branches fixture's plain and woven (`traceBranches`) builds in `dir`.
fn build_branches(dir: &Path) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/branches");
    let woven = dir.join("woven");
    weft_support::weave(
        "invariants.lara",
        &["--arg", "traceBranches=true"],
        &woven,
        &fixture,
    );
    gcc(&fixture.join("grade.c"), &dir.join("plain"));
    gcc(&woven.join("branches/grade.c"), &dir.join("traced"));
}

#[test]
fn branch_outcomes_are_points_and_the_woven_program_behaves_like_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    build_branches(tmp.path());
    // Per score: the branch points grade() and class_of() reach, by their
    // order in the function (grade: then of `score < 0`, A, B, C;
    // class_of: case 'A', 'B', 'C', default): the first statement of the
    // outcome taken; a `case` that falls through reaches the next one's too.
    let cases: [(&str, &[usize], &[usize]); 4] = [
        ("-5", &[0], &[3]),
        ("95", &[1], &[0, 1]),
        ("80", &[2], &[1]),
        ("10", &[3], &[2]),
    ];
    for (score, in_grade, in_class) in cases {
        let out = tmp.path().join(format!("out{score}"));
        let (plain, traced) = (
            run(tmp.path(), "plain", score, &tmp.path().join("unused")),
            run(tmp.path(), "traced", score, &out),
        );
        assert_eq!(plain.stdout, traced.stdout, "score {score}");
        assert_eq!(plain.status.code(), traced.status.code(), "score {score}");
        let trace = trace(&out);
        let reached = |f: &str| {
            let mut lines: Vec<usize> = trace
                .points
                .iter()
                .filter(|p| p.function == f && p.kind == PointKind::Inner)
                .map(|p| p.line)
                .collect();
            lines.sort();
            assert_eq!(lines.len(), 4, "{f}: four outcomes with a statement of their own");
            let at = |line: usize| lines.iter().position(|&l| l == line).unwrap();
            inner(&trace, f).into_iter().map(|s| at(s.0)).collect::<Vec<_>>()
        };
        assert_eq!(reached("grade"), in_grade, "score {score}");
        assert_eq!(reached("class_of"), in_class, "score {score}");
    }
    // A point records the function's variables and the assigned locals.
    let trace = trace(&tmp.path().join("out95"));
    let at_case_b = inner(&trace, "class_of").pop().unwrap();
    assert_eq!(at_case_b.1, ["letter", "points"]);
    assert_eq!(at_case_b.2, [65, 2]);
}
