//! The outputs monitor end to end: aspects/outputs.lara woven into
//! tests/fixtures/outputs/calls.c with the weft binary, built with strict
//! warnings, run with WEFT_OUT set, and its records read back with
//! `weft::monitor::outputs::read_dir`: the program behaves as before, every
//! value is the one the program computed, records survive `_exit`, SIGSEGV
//! and fork, and two runs write the same bytes.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use weft::monitor::ReadError;
use weft::monitor::outputs::{OutputRecord, read_dir};

mod program_support;
mod weft_support;

const FUNCTIONS: &str = "functions=add, scale,sum_prod,clear,name_of,fails";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/outputs/calls.c")
}

fn gcc(dir: &Path, exe: &str, source: &Path) {
    program_support::build_strict(source, &dir.join(exe), &["-std=c99", "-pedantic", "-O2"]);
}

/// Weaves the aspect with `args` into `source`, into `dir/woven`; returns
/// what the weave printed.
fn weave(dir: &Path, args: &[&str], source: &Path) -> String {
    let args: Vec<&str> = args.iter().flat_map(|a| ["--arg", a]).collect();
    weft_support::weave("outputs.lara", &args, &dir.join("woven"), source)
}

/// Weaves the aspect into the fixture and builds the woven program
/// (`outputs`) and the original (`plain`) in `dir`; returns what the weave
/// printed.
fn build(dir: &Path) -> String {
    let log = weave(dir, &[FUNCTIONS], &fixture());
    gcc(dir, "outputs", &dir.join("woven/calls.c"));
    gcc(dir, "plain", &fixture());
    log
}

/// Runs `exe` with argument `mode`, its records going to `dir/out`; returns
/// its output and process id.
fn run(dir: &Path, exe: &str, mode: &str, out: &str) -> (Output, u32) {
    let child = Command::new(dir.join(exe))
        .arg(mode)
        .env("WEFT_OUT", dir.join(out))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    (child.wait_with_output().unwrap(), pid)
}

fn records(dir: &Path, out: &str) -> Vec<OutputRecord> {
    read_dir(&dir.join(out)).unwrap_or_else(|e| panic!("{e}"))
}

fn pairs(values: &[(&str, &str)]) -> Vec<(String, String)> {
    values
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// What every run records before its mode matters, less `mode` and `big`
/// (checked apart).
const COMMON: &[(&str, &str)] = &[
    ("fails.return", "-1"),
    ("add.return", "5"),
    ("scale.return", "0.75"),
    ("sum_prod.*sum", "10"),
    ("sum_prod.*prod", "24"),
    ("clear.*p", "0"),
    ("third", "0.33333333333333331"),
    ("ratio", "0.100000001"),
    ("escaped", r#""tab\there \"q\" \\ \x01\xff""#),
    ("sum", "10"),
];

/// The values of `record` with `mode` and `big` checked and left out.
fn checked(record: &OutputRecord, mode: &str) -> Vec<(String, String)> {
    let mut values = record.values.clone();
    let mut take = |name: &str| {
        let at = values.iter().position(|(n, _)| n == name).unwrap();
        values.remove(at).1
    };
    let big = take("big");
    assert_eq!(big.len(), 4096, "a string's value text is capped");
    assert!(big.starts_with("\"aaa") && big.ends_with("aaa\"..."), "{big}");
    assert_eq!(take("mode"), format!("\"{mode}\""));
    values
}

#[test]
fn a_woven_program_behaves_as_before_and_records_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let log = build(dir.path());
    for note in [
        "sum_prod.*last: struct pair *",
        "sum_prod.*tag: char *",
        "name_of.return: const char *",
    ] {
        assert!(log.contains(&format!("not captured: {note}")), "{note}:\n{log}");
    }
    assert!(log.contains("outputs: 9 captures in 6 functions"), "{log}");
    let (plain, _) = run(dir.path(), "plain", "", "plain-out");
    let (woven, pid) = run(dir.path(), "outputs", "", "out");
    assert_eq!(
        String::from_utf8_lossy(&woven.stdout),
        String::from_utf8_lossy(&plain.stdout)
    );
    assert_eq!((woven.status.code(), plain.status.code()), (Some(0), Some(0)));
    assert!(
        String::from_utf8_lossy(&woven.stdout).starts_with("errno ENOENT\n"),
        "errno kept"
    );
    assert!(!dir.path().join("plain-out").exists());
    let records = records(dir.path(), "out");
    assert_eq!(records.len(), 1, "one unit, one process");
    assert_eq!((records[0].unit.as_str(), records[0].pid), ("calls.c", pid));
    assert_eq!(checked(&records[0], ""), pairs(COMMON));
}

#[test]
fn two_runs_record_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let mut bodies = Vec::new();
    for out in ["one", "two"] {
        run(dir.path(), "outputs", "", out);
        let files: Vec<PathBuf> = std::fs::read_dir(dir.path().join(out))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1);
        // Past the common header, which holds the pid and the time.
        bodies.push(std::fs::read(&files[0]).unwrap()[64..].to_vec());
    }
    assert_eq!(bodies[0], bodies[1]);
    assert!(bodies[0].len() > 4096);
}

#[test]
fn exit_and_a_crash_keep_every_value_written_before_them() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let (exited, _) = run(dir.path(), "outputs", "exit", "exit");
    assert_eq!(exited.status.code(), Some(3));
    let exit = records(dir.path(), "exit");
    let expected = [pairs(COMMON), pairs(&[("before _exit", "-2")])].concat();
    assert_eq!(checked(&exit[0], "exit"), expected);
    let (crashed, _) = run(dir.path(), "outputs", "crash", "crash");
    assert_eq!(crashed.status.signal(), Some(11), "SIGSEGV");
    let crash = records(dir.path(), "crash");
    let expected = [pairs(COMMON), pairs(&[("before crash", "\"bye\"")])].concat();
    assert_eq!(checked(&crash[0], "crash"), expected);
}

#[test]
fn a_forked_child_writes_a_record_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let (forked, pid) = run(dir.path(), "outputs", "fork", "fork");
    assert!(forked.status.success());
    let records = records(dir.path(), "fork");
    assert_eq!(records.len(), 2, "{records:?}");
    let (parent, child): (Vec<_>, Vec<_>) = records.iter().partition(|r| r.pid == pid);
    let expected = [pairs(COMMON), pairs(&[("parent", "1")])].concat();
    assert_eq!(checked(parent[0], "fork"), expected);
    assert_eq!(child[0].values, pairs(&[("add.return", "101"), ("child", "101")]));
}

#[test]
fn a_cut_record_is_an_error_at_its_offset_unless_cut_between_values() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    run(dir.path(), "outputs", "", "out");
    let path = weft::monitor::outputs::record::FORMAT
        .files_in(&dir.path().join("out"))
        .unwrap()
        .remove(0);
    let data = std::fs::read(&path).unwrap();
    let whole = weft::monitor::outputs::record::parse(&data).unwrap();
    for len in 0..data.len() {
        match weft::monitor::outputs::record::parse(&data[..len]) {
            Ok(r) => {
                assert_eq!(data[len - 1], b'\n', "cut at {len} read as whole");
                assert_eq!(r.values[..], whole.values[..r.values.len()], "cut at {len}");
            }
            Err(e) => assert!(
                e.offset <= len && e.reason.contains("truncated"),
                "cut at {len}: {e}"
            ),
        }
    }
    let cut = data.len() - 3;
    std::fs::write(&path, &data[..cut]).unwrap();
    let e = read_dir(&dir.path().join("out")).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}: at byte ", path.display())), "{e}");
    assert!(e.ends_with("truncated value line"), "{e}");
}

#[test]
fn without_functions_only_annotations_record_and_a_silent_run_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let log = weave(dir.path(), &[], &fixture());
    assert!(
        log.contains("outputs: 0 captures in 0 functions; runtime in 1 files"),
        "{log}"
    );
    gcc(dir.path(), "outputs", &dir.path().join("woven/calls.c"));
    run(dir.path(), "outputs", "", "out");
    let names: Vec<String> = records(dir.path(), "out")[0]
        .values
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    assert_eq!(names, ["mode", "third", "ratio", "escaped", "big", "sum"]);
    // A file without annotations compiles cleanly with the whole runtime.
    let quiet = dir.path().join("quiet");
    std::fs::create_dir(&quiet).unwrap();
    let source = quiet.join("quiet.c");
    std::fs::write(&source, "int main(void)\n{\n    return 0;\n}\n").unwrap();
    weave(&quiet, &[], &source);
    gcc(&quiet, "quiet", &quiet.join("woven/quiet.c"));
    let (out, _) = run(&quiet, "quiet", "", "out");
    assert!(out.status.success());
    assert!(
        !quiet.join("out").exists(),
        "a process that records nothing writes nothing"
    );
    // Reading it is refused like any missing path, by every monitor.
    let missing = read_dir(&quiet.join("out")).unwrap_err();
    assert!(matches!(missing, ReadError::Missing(_)), "{missing}");
}
