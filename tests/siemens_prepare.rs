//! examples/siemens/prepare.py takes any archive in SIR's layout, not only
//! the six Siemens programs: a program it has never seen (its executable
//! named by SIR's own scripts, a test plan of arguments only, one version
//! identical to the original) becomes a study that `weft experiment` runs,
//! and whose oracle finds the faulty version's failing tests.

mod weft_support;

use std::fs;
use std::path::Path;
use std::process::Command;

const ORIGINAL: &str = r#"#include <stdio.h>
#include <stdlib.h>

static int classify(int a, int b)
{
    if (a + b > 10)
        return 2;
    return a > b;
}

int main(int argc, char **argv)
{
    int a = argc > 1 ? atoi(argv[1]) : 0;
    int b = argc > 2 ? atoi(argv[2]) : 0;
    printf("%d\n", classify(a, b));
    return 0;
}
"#;

/// Writes `tally.tar.gz` in SIR's layout under `dir`: the original, v1
/// (`>=` where the original has `>`: fails where a + b is 10), v2 (identical
/// to the original), a universe plan of argument lines, and a runall.sh
/// that names the executable `tally_prog`.
fn sir_archive(dir: &Path) {
    let root = dir.join("tally");
    let file = |path: &str, text: &str| {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    file("source.alt/source.orig/tally.c", ORIGINAL);
    file("source.alt/source.orig/CONTENTS=ORIG", "");
    file(
        "versions.alt/versions.orig/v1/tally.c",
        &ORIGINAL.replace("a + b > 10", "a + b >= 10"),
    );
    file("versions.alt/versions.orig/v2/tally.c", ORIGINAL);
    let plan: Vec<String> = (0..12).map(|i| format!("{} {}", i, 10 - i % 3)).collect();
    file("testplans.alt/universe", &(plan.join("\n") + "\n"));
    file("inputs/.keep", "");
    file(
        "scripts/runall.sh",
        "echo script type: R\n../source/tally_prog.exe 0 10 > ../outputs/t1\n",
    );
    let tar = Command::new("tar")
        .args(["czf", "tally.tar.gz", "tally"])
        .current_dir(dir)
        .status()
        .expect("tar runs");
    assert!(tar.success());
    fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_unseen_sir_program_becomes_a_study_that_runs() {
    let dir = tempfile::tempdir().unwrap();
    let benchmarks = dir.path().join("benchmarks");
    fs::create_dir(&benchmarks).unwrap();
    sir_archive(&benchmarks);
    let out_dir = dir.path().join("studies");
    let prepare = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/siemens/prepare.py");
    let out = Command::new("python3")
        .arg(prepare)
        .arg("--benchmarks")
        .arg(&benchmarks)
        .arg("--out")
        .arg(&out_dir)
        .args(["--draws", "1", "--percentages", "100", "--strategies", "INV_t"])
        .args(["--judging", "unseen"])
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("tally: 1 faulty versions, 12 tests"), "{said}");
    assert!(said.contains("identical to the original, left out: v2"), "{said}");
    let study = out_dir.join("tally/study.toml");
    let toml = fs::read_to_string(&study).unwrap();
    assert!(
        toml.contains("-o tally_prog "),
        "the executable SIR's scripts run:\n{toml}"
    );

    weft_support::experiment(&study);
    let report = fs::read_to_string(out_dir.join("tally/report/report.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let oracle = &report["results"]["oracle"];
    assert_eq!(oracle["versions"], serde_json::json!(["v1"]));
    let tests: Vec<&str> = oracle["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let passes: Vec<bool> = oracle["cells"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_bool().unwrap())
        .collect();
    // Plan line n (t{n}) runs `i 10-i%3` with i = n - 1: v1 answers 2 where a + b is 10, the original 0 or 1.
    let failing: Vec<&str> = tests
        .iter()
        .zip(&passes)
        .filter(|(_, pass)| !**pass)
        .map(|(t, _)| *t)
        .collect();
    let expected: Vec<String> = (0..12)
        .filter(|i| {
            let (a, b) = (*i, 10 - i % 3);
            a + b == 10
        })
        .map(|i| format!("t{}", i + 1))
        .collect();
    assert_eq!(failing, expected, "{tests:?} {passes:?}");
    // Judging unseen: at 100% each faulty run by one of the two folds.
    assert!(toml.contains("judging = \"unseen\""), "{toml}");
    let point = &report["results"]["evaluations"][0]["points"][0];
    assert_eq!(point["sets"], 2);
    let counts: u64 = ["tp", "fp", "tn", "fn"]
        .iter()
        .map(|k| point["overall"][k].as_u64().unwrap())
        .sum();
    assert_eq!(counts, 12);
}
