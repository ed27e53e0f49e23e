//! The non-termination corpus (tests/nonterm/corpus): every program woven
//! with aspects/nonterm.lara by the weft binary, built, and run. Each
//! non-terminating program must be reported (exact ones with the cycle's
//! period) and stopped by the abort policy; each terminating twin must
//! print what its plain build prints, with no report at all.

mod corpus_support;
mod program_support;
mod weft_support;
use corpus_support::{corpus, corpus_dir};

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use weft::monitor::nonterm::record::FORMAT;
use weft::monitor::nonterm::{ReportFile, Verdict, read_reports};

fn gcc(source: &Path, exe: &Path) {
    program_support::gcc(&["-std=c99", "-O1", "-w"], source, exe);
}

/// Runs `exe ARG` with `WEFT_OUT=out`, killed after ten seconds.
fn run(exe: &Path, arg: &str, out: &Path) -> Output {
    let mut child = Command::new(exe)
        .arg(arg)
        .env("WEFT_OUT", out)
        .env("WEFT_NONTERM_PATIENCE", "10000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

fn reports(out: &Path) -> Vec<ReportFile> {
    if !out.exists() {
        return Vec::new();
    }
    let files = FORMAT.files_in(out).unwrap();
    files
        .iter()
        .map(|f| read_reports(f).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn every_corpus_hang_is_reported_and_no_twin_is() {
    check_corpus("brent");
}

#[test]
fn the_interval_schedule_reports_the_same_hangs_and_no_twin() {
    check_corpus("interval");
}

/// Weaves the corpus with the given schedule, builds and runs every
/// program and its twin, and requires ≥ 95% reported (exact ones with
/// their period) and no report on a twin.
fn check_corpus(schedule: &str) {
    let corpus = corpus();
    assert!(
        corpus.program.len() >= 40,
        "the corpus has {} programs",
        corpus.program.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let woven_root = dir.path().join("woven");
    let woven = woven_root.join("corpus");
    let schedule_arg = format!("schedule={schedule}");
    weft_support::weave(
        "nonterm.lara",
        &["--arg", &schedule_arg],
        &woven_root,
        &corpus_dir(),
    );
    let mut missed = Vec::new();
    for p in &corpus.program {
        let (bug_exe, twin_out) = p.build_and_run_twins(dir.path(), &woven, gcc, run);
        let false_reports: usize = reports(&twin_out).iter().map(|f| f.reports.len()).sum();
        assert_eq!(false_reports, 0, "{}: a terminating twin was reported", p.name);

        let bug_out = dir.path().join(format!("{}.out", p.name));
        let bug = run(&bug_exe, &p.arg, &bug_out);
        let files = reports(&bug_out);
        let Some((file, report)) = files
            .iter()
            .flat_map(|f| f.reports.iter().map(move |r| (f, r)))
            .next()
        else {
            missed.push(format!("{} ({})", p.name, p.class));
            continue;
        };
        assert!(
            !bug.status.success(),
            "{}: the abort policy did not stop it",
            p.name
        );
        let verdict = if p.exact {
            Verdict::Exact
        } else {
            Verdict::Suspected
        };
        assert_eq!(report.verdict, verdict, "{}: exactness", p.name);
        if let Some(period) = p.period {
            assert_eq!(
                report.period,
                period,
                "{}: period (witness {:?})",
                p.name,
                file.witness(report)
            );
        }
    }
    let detected = corpus.program.len() - missed.len();
    eprintln!(
        "{schedule}: detected {detected} of {}; missed: {missed:?}",
        corpus.program.len()
    );
    assert!(detected * 100 >= corpus.program.len() * 95, "missed: {missed:?}");
}
