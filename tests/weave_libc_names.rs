//! A program may give its own functions libc's names (read, write, open,
//! getenv, getpid...) with other types and meanings: as external
//! functions, as static ones, or through a macro (`#define open my_open`).
//! Woven by every monitor, it still builds with warnings as errors, prints
//! what the original prints (its own functions counted no extra call from
//! the runtime) and the monitor's records are written; the abort policy
//! still ends the process by SIGABRT.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;

mod program_support;
mod weft_support;

/// Each monitor's aspect, its arguments, the record's extension and a text
/// the record must hold.
const MONITORS: &[(&str, &[&str], &str, &str)] = &[
    ("nonterm.lara", &[], "nonterm", "\tsuspected\t"),
    ("ascv3.lara", &[], "ranges", "WEFTRNG"),
    ("invariants.lara", &[], "trace", "WEFTTRC"),
    (
        "outputs.lara",
        &["--arg", "functions=main"],
        "outputs",
        "main.return\t0\n",
    ),
];

fn build(source: &Path, exe: &Path) {
    program_support::gcc(&["-std=c99", "-Wall", "-Werror"], source, exe);
}

/// Runs the program with its records going to `out` and the non-termination
/// policy `policy`.
fn run_with(exe: &Path, out: &Path, policy: &str) -> std::process::Output {
    Command::new(exe)
        .env("WEFT_OUT", out)
        .env("WEFT_NONTERM_PATIENCE", "1")
        .env("WEFT_NONTERM_POLICY", policy)
        .output()
        .expect("runs")
}

/// What the program printed, its reports only logged.
fn run(exe: &Path, out: &Path) -> String {
    let run = run_with(exe, out, "log");
    assert!(run.status.success(), "{}: {:?}", exe.display(), run.status);
    String::from_utf8(run.stdout).unwrap()
}

/// The fixture woven by every monitor behaves as the original and records.
fn check(fixture: &str) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/libc_names")
        .join(fixture);
    let tmp = tempfile::tempdir().unwrap();
    build(&source, &tmp.path().join("plain"));
    let expected = run(&tmp.path().join("plain"), &tmp.path().join("plain-out"));
    assert!(expected.contains("calls: write 10 "), "{expected}");
    assert!(!tmp.path().join("plain-out").exists());
    for (aspect, args, ext, text) in MONITORS {
        let (woven, exe, out) = (
            tmp.path().join(ext),
            tmp.path().join(format!("{ext}.exe")),
            tmp.path().join(format!("{ext}.out")),
        );
        weft_support::weave(aspect, args, &woven, &source);
        build(&woven.join(fixture), &exe);
        assert_eq!(run(&exe, &out), expected, "{aspect}");
        let records: Vec<_> = std::fs::read_dir(&out)
            .expect("records written")
            .map(|e| e.unwrap().path())
            .collect();
        assert!(!records.is_empty(), "{aspect}: no record");
        for record in records {
            assert_eq!(record.extension().unwrap(), *ext);
            let bytes = std::fs::read(&record).unwrap();
            let body = String::from_utf8_lossy(&bytes);
            assert!(
                body.contains(text),
                "{aspect}: {} lacks {text:?}",
                record.display()
            );
        }
    }
    // The abort policy still ends the process by SIGABRT, after its report.
    let aborted = run_with(
        &tmp.path().join("nonterm.exe"),
        &tmp.path().join("abort.out"),
        "abort",
    );
    assert_eq!(aborted.status.signal(), Some(6), "{:?}", aborted.status);
    assert_eq!(
        std::fs::read_dir(tmp.path().join("abort.out")).unwrap().count(),
        1
    );
}

#[test]
fn external_functions_named_like_libc_are_not_the_runtimes() {
    check("external.c");
}

#[test]
fn static_functions_and_macros_named_like_libc_are_not_the_runtimes() {
    check("file_scope.c");
}
