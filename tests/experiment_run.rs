//! Crashes, hangs and floods of output are recorded as failing runs.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use weft::run::{Abnormal, execute};

fn run(cmd: &str, timeout_ms: u64, cap: u64) -> weft::run::RunRecord {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("cwd");
    std::fs::create_dir(&cwd).unwrap();
    let outputs = vec!["big.txt".to_string()];
    execute(
        cmd,
        &cwd,
        &BTreeMap::new(),
        None,
        &outputs,
        Duration::from_millis(timeout_ms),
        cap,
    )
    .unwrap()
    .record
}

#[test]
fn normal_run_records_status_and_outputs() {
    let r = run("echo hi; echo x > big.txt; exit 3", 5000, 1000);
    assert_eq!((r.status, r.abnormal), (3, None));
    assert!(r.outputs["big.txt"].is_some());
    assert_eq!(run("true", 5000, 1000).outputs["big.txt"], None);
}

#[test]
fn crash_is_abnormal() {
    let r = run("kill -SEGV $$", 5000, 1000);
    assert_eq!(r.abnormal, Some(Abnormal::Crash));
    assert_eq!(r.status, 128 + 11);
}

#[test]
fn hang_is_killed_with_its_group() {
    let start = Instant::now();
    // The background sleeper holds the pipes: only a group kill ends it.
    let r = run("sleep 30 & sleep 30", 300, 1000);
    assert_eq!(r.abnormal, Some(Abnormal::Timeout));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn output_floods_are_capped() {
    let start = Instant::now();
    let r = run("yes", 20_000, 4096);
    assert_eq!(r.abnormal, Some(Abnormal::OutputCap));
    assert!(start.elapsed() < Duration::from_secs(10));
    let r = run("head -c 10000 /dev/zero > big.txt", 20_000, 4096);
    assert_eq!(r.abnormal, Some(Abnormal::OutputCap));
}

#[test]
fn a_command_without_shell_syntax_runs_as_under_the_shell() {
    // Run directly (no shell syntax) and through `sh -c` (a `;`): the same
    // status and the same stdout.
    for (direct, shell) in [
        ("/bin/echo 'a  b' \"$HOME\"", "/bin/echo 'a  b' \"$HOME\"; true"),
        ("/bin/false", "/bin/false; exit $?"),
    ] {
        let (a, b) = (run(direct, 5000, 1000), run(shell, 5000, 1000));
        assert_eq!((a.status, a.stdout), (b.status, b.stdout), "{direct}");
    }
}

#[test]
fn missing_program_is_a_failing_run_not_an_error() {
    let r = run("./no-such-program", 5000, 1000);
    assert_eq!(r.status, 127);
    assert_eq!(r.abnormal, None);
}
