//! `weft invariants` on a real woven program: the fixture of
//! tests/trace_compile_run.rs woven with aspects/invariants.lara, built,
//! run; its traces learned, checked, exported to Daikon's format and read
//! back; and bad input refused with a message naming the file.

use std::path::{Path, PathBuf};
use std::process::Command;

mod program_support;
mod weft_support;
use weft_support::{weft, weft_exits};

/// The traced fixture built in `dir`, and runs `r1`..`r5` (argument 1..5)
/// plus `odd` (argument 3, an extra argument) under `dir/runs`.
fn traced_runs(dir: &Path) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace/calls.c");
    let woven = dir.join("woven");
    weft_support::weave("invariants.lara", &[], &woven, &fixture);
    let exe = dir.join("calls");
    program_support::gcc(&["-O2"], &woven.join("calls.c"), &exe);
    let runs = dir.join("runs");
    let mut all: Vec<(String, Vec<&str>)> = (1..=5).map(|i| (format!("r{i}"), vec![])).collect();
    all.push(("odd".into(), vec!["3", "b"]));
    for (i, (name, args)) in all.iter().enumerate() {
        let arg = (i + 1).to_string();
        let args: Vec<&str> = if args.is_empty() { vec![&arg] } else { args.clone() };
        let status = Command::new(&exe)
            .args(&args)
            .env("WEFT_OUT", runs.join(name))
            .env("WEFT_TRACE_SAMPLING", "all")
            .output()
            .unwrap()
            .status;
        assert!(status.success());
    }
    runs
}

#[test]
fn learn_check_and_daikon_export() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = traced_runs(tmp.path());
    let training: Vec<String> = (1..=5)
        .map(|i| runs.join(format!("r{i}")).display().to_string())
        .collect();
    let learned = tmp.path().join("learned.json");
    let mut args = vec!["invariants", "learn", "-o", learned.to_str().unwrap()];
    args.extend(training.iter().map(String::as_str));
    let (stdout, stderr) = weft_exits(0, &args);
    // Facts of the fixture: add returns the sum of its arguments, which it
    // does not change; main always got one argument.
    for expected in [
        "return == a + b",
        "a == orig(a)",
        "argc == 2",
        "calls.c.add():::EXIT",
    ] {
        assert!(stdout.contains(expected), "{expected} missing from:\n{stdout}");
    }
    assert!(stderr.contains("learned from"), "{stderr}");
    // A kind left out by name is never learned; an unknown name is refused.
    let mut without = vec!["invariants", "learn", "--kinds-off", "LinearTernary,NonModulus"];
    without.extend(training.iter().map(String::as_str));
    let (fewer, _) = weft_exits(0, &without);
    assert!(
        !fewer.contains("return == a + b") && fewer.contains("a == orig(a)"),
        "{fewer}"
    );
    let (_, stderr) = weft_exits(2, ["invariants", "learn", "--kinds-off", "Modulo", &training[0]]);
    assert!(stderr.contains("unknown invariant kind \"Modulo\""), "{stderr}");

    // A training run violates nothing; the run with an extra argument
    // violates `argc == 2`, and says with which value.
    let check = |run: &str| weft(["invariants", "check", "--learned", learned.to_str().unwrap(), run]);
    let (good, _) = weft_support::exited(&check(&training[0]), 0);
    assert!(good.contains("0 of 1 runs violate"));
    let odd = runs.join("odd").display().to_string();
    let (stdout, _) = weft_support::exited(&check(&odd), 1);
    assert!(stdout.contains("calls.c.main():::ENTER: argc == 2"), "{stdout}");
    assert!(stdout.contains("first: argc = 3"), "{stdout}");
    let json = weft([
        "invariants",
        "check",
        "--json",
        "--learned",
        learned.to_str().unwrap(),
        &odd,
    ]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(
        value["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"] == "Constant" && f["invariant"] == "argc == 2")
    );

    // Daikon's format: exported traces learned again give the same entry
    // invariants as the traces themselves (the whole report is compared in
    // tests/invariants_daikon.rs).
    let dtrace = tmp.path().join("all.dtrace");
    let mut args = vec!["invariants", "export", "-o", dtrace.to_str().unwrap()];
    args.extend(training.iter().map(String::as_str));
    weft_exits(0, &args);
    let from_dtrace = weft_support::stdout(&weft(["invariants", "learn", dtrace.to_str().unwrap()]));
    let from_traces = weft_support::stdout(&weft(
        ["invariants", "learn"]
            .into_iter()
            .chain(training.iter().map(String::as_str)),
    ));
    let entries = |report: &str| -> Vec<String> {
        report
            .split("===========================================================================\n")
            .filter(|block| block.lines().next().is_some_and(|l| l.ends_with(":::ENTER")))
            .map(String::from)
            .collect()
    };
    assert!(!entries(&from_traces).is_empty());
    assert_eq!(entries(&from_dtrace), entries(&from_traces));
    // Exporting again replaces weft's own file.
    weft_exits(0, &args);
}

#[test]
fn bad_input_is_refused_with_the_file_named() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = traced_runs(tmp.path());
    let run = runs.join("r1");
    // A truncated trace: the error names the file and the byte offset.
    let trace = std::fs::read_dir(&run).unwrap().next().unwrap().unwrap().path();
    let cut = tmp.path().join("cut.trace");
    std::fs::write(&cut, &std::fs::read(&trace).unwrap()[..40]).unwrap();
    let (_, stderr) = weft_exits(2, ["invariants", "learn", cut.to_str().unwrap()]);
    assert!(
        stderr.contains("cut.trace") && stderr.contains("at byte"),
        "{stderr}"
    );
    // A directory without traces.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, stderr) = weft_exits(2, ["invariants", "learn", empty.to_str().unwrap()]);
    assert!(stderr.contains("no .trace files"), "{stderr}");
    // `-o` never replaces a file weft did not write, and `check` never
    // takes one for learned invariants.
    let notes = tmp.path().join("notes.txt");
    std::fs::write(&notes, "mine\n").unwrap();
    let (notes_arg, run_arg) = (notes.to_str().unwrap(), run.to_str().unwrap());
    let (_, stderr) = weft_exits(2, ["invariants", "learn", "-o", notes_arg, run_arg]);
    assert!(stderr.contains("refusing to replace"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine\n");
    weft_exits(2, ["invariants", "export", "-o", notes_arg, run_arg]);
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine\n");
    let (_, stderr) = weft_exits(2, ["invariants", "check", "--learned", notes_arg, run_arg]);
    assert!(stderr.contains("not a set of learned invariants"), "{stderr}");
    // A bad run after a violating one: the check is refused whole, in text
    // and JSON alike, rather than reporting the runs before it.
    let learned = tmp.path().join("learned.json");
    weft_exits(
        0,
        [
            "invariants",
            "learn",
            "-o",
            learned.to_str().unwrap(),
            run.to_str().unwrap(),
        ],
    );
    let odd = runs.join("odd");
    for json in [false, true] {
        let mut args = vec!["invariants", "check", "--learned", learned.to_str().unwrap()];
        args.extend(json.then_some("--json"));
        let mut good = args.clone();
        good.extend([odd.to_str().unwrap(), run.to_str().unwrap()]);
        let (stdout, _) = weft_exits(1, &good);
        if json {
            // JSON lines: one object per run, in order.
            let lines: Vec<serde_json::Value> =
                stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(lines.len(), 2, "{stdout}");
            assert_eq!(lines[0]["run"], odd.to_str().unwrap());
            assert!(!lines[0]["findings"].as_array().unwrap().is_empty());
            assert_eq!(lines[1]["findings"], serde_json::json!([]));
        }
        args.extend([odd.to_str().unwrap(), cut.to_str().unwrap()]);
        let (stdout, stderr) = weft_exits(2, &args);
        assert!(stderr.contains("cut.trace"), "{stderr}");
        assert_eq!(stdout, "", "json: {json}");
    }
}
