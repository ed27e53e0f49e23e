//! The invariant detector in a study of the shape fault benchmarks come
//! in: examples/calendar-faults (a one-file program built by one compiler
//! command, faulty versions as whole files, tests as argument lines),
//! reduced to three faulty versions, one draw at 100% training.

use std::path::Path;

mod setup_support;

#[test]
fn invariants_beat_the_all_pass_baseline_on_the_calendar_study() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/calendar-faults");
    let tmp = tempfile::tempdir().unwrap();
    let at = |p: &str| example.join(p).display().to_string();
    let study = format!(
        r#"[study]
name = "calendar-small"
source = "{cal}"
build = ['gcc $CFLAGS -o cal cal.c']
cflags = "-std=c99 -O1"
seed = 2026
draws = 1
percentages = [100]
compare_stderr = true
env = {{ WEFT_TRACE_SAMPLING = "all" }}

[study.test_lines]
file = "{tests}"
cmd = '"$WEFT_BUILD/cal" {{}}'
prefix = "t"

[[version]]
name = "original"

[[version]]
name = "v2"
source = "{v2}"

[[version]]
name = "v3"
source = "{v3}"

[[version]]
name = "v10"
source = "{v10}"

[[strategy]]
name = "INV"
kind = "weave"
detector = "invariants"
aspect = "{aspect}"
"#,
        cal = at("cal.c"),
        tests = at("tests.txt"),
        v2 = at("versions/v2/cal.c"),
        v3 = at("versions/v3/cal.c"),
        v10 = at("versions/v10/cal.c"),
        aspect = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("aspects/invariants.lara")
            .display(),
    );
    let file = tmp.path().join("study.toml");
    std::fs::write(&file, study).unwrap();
    setup_support::experiment(&file);

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("report/report.json")).unwrap())
            .unwrap();
    let results = &report["results"];
    assert_eq!(results["oracle"]["tests"].as_array().unwrap().len(), 270);
    let cells: Vec<bool> = results["oracle"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|c| c.as_bool().unwrap()))
        .collect();
    let failing = cells.iter().filter(|&&pass| !pass).count() as u64;
    assert!(failing > 0, "the faulty versions fail some tests");
    let overall = &results["evaluations"][0]["points"][0]["overall"];
    let count = |k: &str| overall[k].as_u64().unwrap();
    let (tp, fp, tn, false_alarms) = (count("tp"), count("fp"), count("tn"), count("fn"));
    let total = tp + fp + tn + false_alarms;
    assert_eq!(total, cells.len() as u64);
    // Failing runs flagged, few passing runs flagged, and more right
    // answers than answering "pass" everywhere.
    assert!(tn > 0, "no failing run was flagged: {overall}");
    assert!(
        false_alarms * 100 <= tp + false_alarms,
        "false alarms on over 1% of passing runs: {overall}"
    );
    assert!(
        tp + tn > total - failing,
        "not above the all-pass baseline: {overall}"
    );
    let md = std::fs::read_to_string(tmp.path().join("report/report.md")).unwrap();
    assert!(md.contains("INV: violated invariants by kind"), "{md}");
}
