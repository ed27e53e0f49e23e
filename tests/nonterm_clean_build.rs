//! Code woven by aspects/nonterm.lara builds where the original builds with
//! warnings as errors: variables a loop overwrites before reading them are
//! not read at its head (they hold no value before the first iteration),
//! and the runtime's unused parts raise no warning.

use std::path::Path;
use std::process::Command;

mod program_support;
mod weft_support;

fn build(source: &Path, exe: &Path) {
    program_support::build_strict(source, exe, &["-std=c99", "-O2"]);
}

#[test]
fn a_loop_overwriting_its_temporaries_builds_with_werror_and_runs_as_before() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nonterm/overwritten.c");
    let tmp = tempfile::tempdir().unwrap();
    build(&fixture, &tmp.path().join("plain"));
    let woven = tmp.path().join("woven");
    weft_support::weave("nonterm.lara", &[], &woven, &fixture);
    build(&woven.join("overwritten.c"), &tmp.path().join("monitored"));
    let run = |exe: &str| {
        Command::new(tmp.path().join(exe))
            .env("WEFT_OUT", tmp.path().join("out"))
            .output()
            .expect("runs")
    };
    let (plain, monitored) = (run("plain"), run("monitored"));
    assert!(plain.status.success() && monitored.status.success());
    assert_eq!(plain.stdout, monitored.stdout);
    assert_eq!(String::from_utf8_lossy(&plain.stdout), "10\n");
}
