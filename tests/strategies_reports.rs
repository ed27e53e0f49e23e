//! The report-driven strategies over the fixture: the frequency report
//! (instrumented run, then `weft ranges freq-report`), the static fan-in
//! report, and FREQ,
//! FANIN, COMBAND and COMBOR selecting from them, each woven, compiled with
//! warnings as errors, run and read back.

mod strategies_support;
mod weft_support;

use std::path::Path;

use serde_json::json;
use strategies_support::{assert_range, build_and_run, fixture, monitor, names, weave, weft};

/// Writes the frequency report of the fixture's run to `dir/freq.json`.
fn frequency_report(dir: &Path) -> String {
    let woven = weave(dir, "freq_report.lara", &[]);
    let records = build_and_run(dir, &woven);
    let report = dir.join("freq.json");
    weft(
        dir,
        &[
            "ranges",
            "freq-report",
            records.to_str().unwrap(),
            "-o",
            report.to_str().unwrap(),
        ],
    );
    report.display().to_string()
}

/// Writes the fan-in report of the fixture to `dir/fanin.json`.
fn fanin_report(dir: &Path) -> String {
    let report = dir.join("fanin.json");
    let aspect = strategies_support::aspect("fanin_report.lara");
    weft(
        dir,
        &[
            "weave",
            "--aspect",
            aspect.to_str().unwrap(),
            "--arg",
            &format!("report={}", report.display()),
            "--diff",
            fixture().to_str().unwrap(),
        ],
    );
    report.display().to_string()
}

fn read_json(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_frequency_report_counts_the_assignments_the_tests_ran() {
    let dir = tempfile::tempdir().unwrap();
    let report = read_json(&frequency_report(dir.path()));
    // One run of prog.c: total = 0, ten `total = total + c` in the loop and
    // `total = mix(...)`; ten `c = clamp(...)` (the write in the `if`
    // condition is not monitored); `u = t + 1` and `u = u + a` (from
    // `u += a`). The return temporaries are not counted: `return e` is not an
    // assignment of the program.
    assert_eq!(
        report,
        json!({"total": 27, "main#total": 12, "main#c": 10, "main#s": 1,
               "scale#y": 1, "mix#t": 1, "mix#u": 2})
    );
}

#[test]
fn the_fanin_report_keeps_the_largest_fanin_outside_calls() {
    let dir = tempfile::tempdir().unwrap();
    let report = read_json(&fanin_report(dir.path()));
    // u = t + 1 (1) and u = u + a (2, from u += a); c = clamp(...) reads
    // nothing outside the call; loop headers and conditions count too
    // (i = i + 1, c = argc + 100). NormalizeReturn's weft_ret is no candidate.
    assert_eq!(
        report,
        json!({"scale#y": 2, "mix#t": 3, "mix#u": 2, "main#total": 2,
               "main#c": 1, "main#s": 0, "main#i": 1})
    );
}

#[test]
fn freq_monitors_the_frequently_assigned_variables() {
    let dir = tempfile::tempdir().unwrap();
    let report = frequency_report(dir.path());
    // Default threshold 1%: every written variable has more.
    let (_w, all) = monitor("freq.lara", &[&format!("report={report}")]);
    assert_eq!(
        names(&all),
        [
            "write main#c:i64",
            "write main#s:f64",
            "write main#total:i64",
            "write mix#t:i64",
            "write mix#u:i64",
            "write scale#y:f64"
        ]
    );
    // 5%: total (12/27), c (10/27) and u (2/27). Selected: the 10 plain
    // writes of the program; advised: total's 4, c's and u's 2.
    let freq = strategies_support::aspect("freq.lara");
    let stdout = weft(
        dir.path(),
        &[
            "weave",
            "--aspect",
            freq.to_str().unwrap(),
            "--arg",
            &format!("report={report}"),
            "--arg",
            "threshold=0.05",
            "--diff",
            fixture().to_str().unwrap(),
        ],
    );
    assert!(stdout.contains("join points: 10 selected, 7 advised"), "{stdout}");
    let (_w, hot) = monitor("freq.lara", &[&format!("report={report}"), "threshold=0.05"]);
    assert_eq!(
        names(&hot),
        ["write main#c:i64", "write main#total:i64", "write mix#u:i64"]
    );
    assert_range(&hot, "write main#total:i64", json!(0), json!(58692));
    assert_range(&hot, "write mix#u:i64", json!(202), json!(292));
}

#[test]
fn fanin_monitors_the_variables_computed_from_many() {
    let dir = tempfile::tempdir().unwrap();
    let report = fanin_report(dir.path());
    let (_w, ranges) = monitor("fanin.lara", &[&format!("report={report}")]);
    assert_eq!(names(&ranges), ["write mix#t:i64"]);
    assert_range(&ranges, "write mix#t:i64", json!(201), json!(201));
}

#[test]
fn comband_and_combor_intersect_and_unite_the_selections() {
    let dir = tempfile::tempdir().unwrap();
    let freq = format!("freqReport={}", frequency_report(dir.path()));
    let fanin = format!("faninReport={}", fanin_report(dir.path()));
    // FREQ at 5%: total, c, u. FANIN above 1: y, t, u, total.
    let args = [
        freq.as_str(),
        fanin.as_str(),
        "freqThreshold=0.05",
        "faninThreshold=1",
    ];
    let (_w, and) = monitor("comband.lara", &args);
    assert_eq!(names(&and), ["write main#total:i64", "write mix#u:i64"]);
    let (_w, or) = monitor("combor.lara", &args);
    assert_eq!(
        names(&or),
        [
            "write main#c:i64",
            "write main#total:i64",
            "write mix#t:i64",
            "write mix#u:i64",
            "write scale#y:f64"
        ]
    );
    assert_range(&or, "write scale#y:f64", json!(270.5), json!(270.5));
}

#[test]
fn report_driven_strategies_without_a_report_fail() {
    let dir = tempfile::tempdir().unwrap();
    let aspect = strategies_support::aspect("freq.lara");
    let out = weft_support::command()
        .current_dir(dir.path())
        .args([
            "weave",
            "--aspect",
            aspect.to_str().unwrap(),
            "--diff",
            fixture().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--arg report=PATH"));
}
