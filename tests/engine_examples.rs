//! The examples under examples/: their aspects pass `weft check`, and
//! weaving them with `weft weave`, compiling with gcc and running gives the
//! expected output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod weft_support;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

#[test]
fn example_aspects_check_clean() {
    let mut checked = 0;
    for entry in std::fs::read_dir(examples()).unwrap().flatten() {
        let aspect = entry.path().join("aspect.lara");
        if !aspect.exists() {
            continue;
        }
        let module = weft::aspect::load(&aspect, &weft::Limits::default()).unwrap_or_else(|e| panic!("{e}"));
        let diagnostics = weft::engine::check(&module, &weft::Limits::default());
        assert!(!diagnostics.has_errors(), "{}:\n{diagnostics}", aspect.display());
        checked += 1;
    }
    assert_eq!(checked, 5);
}

/// Runs `weft weave` on example `name` into `out`.
fn weave(name: &str, out: &Path) -> Output {
    let dir = examples().join(name);
    weft_support::command()
        .arg("weave")
        .arg("--aspect")
        .arg(dir.join("aspect.lara"))
        .arg("--output")
        .arg(out)
        .arg(dir.join("main.c"))
        .output()
        .expect("weft runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn expected(name: &str, file: &str) -> String {
    std::fs::read_to_string(examples().join(name).join(file)).unwrap()
}

/// Weaves, compiles and runs example `name`; returns the program's output.
fn weave_compile_run(name: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("woven");
    let woven = weave(name, &out);
    assert!(woven.status.success(), "weave failed:\n{}", text(&woven.stderr));
    let source = out.join("main.c");
    let exe = tmp.path().join("a.out");
    let gcc = Command::new("gcc")
        .arg("-std=c99")
        .arg("-o")
        .arg(&exe)
        .arg(&source)
        .output()
        .expect("gcc runs");
    let woven_text = std::fs::read_to_string(&source).unwrap_or_default();
    assert!(
        gcc.status.success(),
        "gcc failed:\n{}\n{woven_text}",
        text(&gcc.stderr)
    );
    let run = Command::new(&exe).output().expect("woven program runs");
    assert!(run.status.success(), "{woven_text}");
    text(&run.stdout)
}

#[test]
fn loop_iterations_counts_for_loops() {
    let name = "loop-iterations";
    assert_eq!(weave_compile_run(name), expected(name, "expected-run.txt"));
}

#[test]
fn instrument_function_calls_prints_caller_and_callee() {
    let name = "instrument-function-calls";
    assert_eq!(weave_compile_run(name), expected(name, "expected-run.txt"));
}

#[test]
fn count_allocations_counts_calls_in_initializers_too_and_reports_at_exit() {
    let name = "count-allocations";
    assert_eq!(weave_compile_run(name), expected(name, "expected-run.txt"));
}

#[test]
fn print_loop_iterations_prints_while_weaving() {
    let name = "print-loop-iterations";
    let tmp = tempfile::tempdir().unwrap();
    let woven = weave(name, &tmp.path().join("woven"));
    assert!(woven.status.success(), "{}", text(&woven.stderr));
    assert_eq!(text(&woven.stdout), expected(name, "expected-weave.txt"));
}

#[test]
fn unroll_is_refused_with_the_aspect_location() {
    let name = "unroll-loops-by-2";
    let tmp = tempfile::tempdir().unwrap();
    let woven = weave(name, &tmp.path().join("woven"));
    assert_eq!(woven.status.code(), Some(1), "{}", text(&woven.stdout));
    let stderr = text(&woven.stderr);
    for line in expected(name, "expected-error.txt").lines() {
        assert!(stderr.contains(line), "missing {line:?} in\n{stderr}");
    }
}
