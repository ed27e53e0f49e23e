//! `weft triage --fuzz`: afl-fuzz finds an input telling apart two
//! revisions that the given inputs leave in one class. Revision 1 reads
//! input bytes as unsigned, revision 2 as signed (a classic patch slip):
//! they agree on every ASCII input and differ on any byte of 0x80 or more.
//! The same program taking its threshold as an argument is fuzzed from
//! `--tests` lines of the form `./count N < FILE`: the arguments stay, the
//! stdin varies. Needs AFL++ (`scripts/install-deps.sh` installs it).

use std::path::Path;
use std::process::Command;

mod weft_support;

const PROGRAM: &str = r#"#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *r = getenv("WEFT_REV");
    int rev = r ? atoi(r) : 0;
    int c, low = 0, below = argc > 1 ? atoi(argv[1]) : 'A';
    while ((c = getchar()) != EOF) {
        int v = rev == 2 ? (signed char)c : c;
        low += v < (rev == 0 ? below + 1 : below);
    }
    printf("%d\n", low);
    return 0;
}
"#;

fn build(dir: &Path) {
    std::fs::write(dir.join("count.c"), PROGRAM).unwrap();
    let built = Command::new("afl-cc")
        .args(["-O1", "-o", "count", "count.c"])
        .env("AFL_QUIET", "1")
        .current_dir(dir)
        .output()
        .expect("afl-cc runs (scripts/install-deps.sh installs AFL++)");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
}

fn run(dir: &Path, revision: &str, input: &Path) -> Vec<u8> {
    let out = Command::new(dir.join("count"))
        .env("WEFT_REV", revision)
        .stdin(std::fs::File::open(input).unwrap())
        .output()
        .unwrap();
    out.stdout
}

#[test]
fn fuzzing_splits_revisions_the_given_inputs_leave_together() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    std::fs::write(inputs.join("a"), "Ant, Bee!\n").unwrap();
    std::fs::write(inputs.join("b"), "zebra 42\n").unwrap();
    let triage = |extra: &[&str]| {
        weft_support::command()
            .args([
                "triage",
                "--revisions",
                "1-2",
                "--inputs",
                "inputs",
                "--timeout",
                "1",
            ])
            .args(extra)
            .args(["--", "./count"])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let plain = triage(&["--json", "plain.json"]);
    let text = String::from_utf8_lossy(&plain.stdout);
    assert!(text.contains("class 2: revisions 1, 2"), "{text}");

    let fuzzed = triage(&["--fuzz", "8", "--fuzz-into", "found", "--json", "fuzzed.json"]);
    let text = String::from_utf8_lossy(&fuzzed.stdout);
    assert!(
        fuzzed.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&fuzzed.stderr)
    );
    assert!(text.contains("Round 1: fuzzed revisions 1, 2 for"), "{text}");
    assert!(text.contains("Classes before fuzzing: 2; after: 3."), "{text}");
    assert!(
        text.contains("class 2: revision 1\n") && text.contains("class 3: revision 2\n"),
        "{text}"
    );
    // Only the class of two revisions was fuzzed, and every saved input
    // tells its revisions apart.
    let found: Vec<_> = std::fs::read_dir(dir.path().join("found"))
        .unwrap()
        .flatten()
        .collect();
    assert!(!found.is_empty());
    for input in found {
        let name = input.file_name().to_string_lossy().into_owned();
        assert!(name.starts_with("r1-class-2-"), "{name}");
        assert_ne!(
            run(dir.path(), "1", &input.path()),
            run(dir.path(), "2", &input.path()),
            "{name}"
        );
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("fuzzed.json")).unwrap()).unwrap();
    assert_eq!(report["classes"].as_array().unwrap().len(), 3);
    assert_eq!(report["told_apart"], true);
}

/// Runs a test line as triage does, from `dir`, as `revision`.
fn replay(dir: &Path, revision: &str, line: &str) -> Vec<u8> {
    let out = Command::new("sh")
        .args(["-c", line])
        .env("WEFT_REV", revision)
        .current_dir(dir)
        .output()
        .unwrap();
    out.stdout
}

#[test]
fn fuzzing_tests_keeps_their_arguments_and_varies_their_stdin() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    std::fs::write(inputs.join("a"), "Ant, Bee!\n").unwrap();
    std::fs::write(inputs.join("b"), "zebra 42\n").unwrap();
    let tests = "./count 66 < in/a\n# a comment\ncd in && ../count 100 <b\n";
    std::fs::write(dir.path().join("tests.txt"), tests).unwrap();
    let fuzzed = weft_support::command()
        .args([
            "triage",
            "--revisions",
            "1-2",
            "--tests",
            "tests.txt",
            "--timeout",
            "1",
        ])
        .args(["--fuzz", "8", "--fuzz-into", "found"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&fuzzed.stdout);
    assert!(
        fuzzed.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&fuzzed.stderr)
    );
    assert!(text.contains("Classes before fuzzing: 2; after: 3."), "{text}");
    // Every input found is a test of the given form: one of the two
    // argument vectors, the saved file on stdin, and it tells 1 from 2.
    let found = std::fs::read_to_string(dir.path().join("found/tests")).unwrap();
    let lines: Vec<&str> = found.lines().collect();
    assert!(!lines.is_empty());
    for line in lines {
        assert!(
            line.starts_with("./count 66 < '") || line.starts_with("cd in && ../count 100 < '"),
            "{line}"
        );
        assert!(line.contains("/found/r1-class-2-"), "{line}");
        assert_ne!(
            replay(dir.path(), "1", line),
            replay(dir.path(), "2", line),
            "{line}"
        );
    }
}

#[test]
fn fuzzing_needs_input_files_and_a_new_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tests.txt"), "echo 1\n").unwrap();
    std::fs::create_dir(dir.path().join("found")).unwrap();
    let triage = |args: &[&str]| {
        let out = weft_support::command()
            .arg("triage")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = triage(&[
        "--revisions",
        "1",
        "--tests",
        "tests.txt",
        "--fuzz",
        "5",
        "--fuzz-into",
        "new",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--fuzz with --tests needs tests ending with `< FILE`"),
        "{err}"
    );
    let (code, err) = triage(&[
        "--revisions",
        "1",
        "--inputs",
        ".",
        "--fuzz",
        "5",
        "--fuzz-into",
        "found",
        "--",
        "cat",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--fuzz-into found: give a new directory"), "{err}");
    let (code, err) = triage(&["--revisions", "1", "--inputs", ".", "--fuzz", "5", "--", "cat"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--fuzz-into"), "{err}");
}
