//! End-to-end studies on the tiny C program of tests/fixtures/experiment/tiny.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use weft::experiment::{Study, run_local};

/// A private copy of the fixture (the study writes beside its file).
fn fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/experiment/tiny");
    let ok = Command::new("cp")
        .arg("-a")
        .arg(src.join("."))
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(ok.success());
    let study = dir.path().join("study.toml");
    (dir, study)
}

#[test]
fn tiny_study_matrices_and_cache() {
    let (_dir, file) = fixture();
    let study = Study::load(&file).unwrap();
    let (results, stats) = run_local(&study, 2, weft_support::binary()).unwrap();
    // v1 doubles the 7th term (n >= 7 differs); v2 hangs on n = 5.
    assert_eq!(results.oracle.tests, ["n3", "n5", "n6", "n7", "n10", "file"]);
    assert_eq!(
        results.oracle.cells,
        vec![
            vec![true, true, true, false, false, false],
            vec![true, false, true, true, true, true]
        ]
    );
    // With 100% of the training runs the learned range of acc is [1, 55]:
    // v1 leaves it only for n = 10 (62) and n = 8 (44 fits); v2's hang is
    // abnormal. At 100% one whole set judges the faulty versions' runs.
    let full = results.evaluations[0]
        .points
        .iter()
        .find(|p| p.percentage == 100)
        .unwrap();
    assert_eq!(full.sets, 1);
    assert_eq!(
        full.pass_draws,
        vec![vec![1, 1, 1, 1, 0, 1], vec![1, 0, 1, 1, 1, 1]]
    );
    assert_eq!((stats.built, stats.ran), (6, 36));
    assert!(results.instrumentation_changes[0].1.is_empty());

    // A second execution redoes nothing and gives the same results.
    let (again, stats) = run_local(&study, 2, weft_support::binary()).unwrap();
    assert_eq!((stats.built, stats.ran), (0, 0));
    assert_eq!((stats.builds_reused, stats.runs_reused), (6, 36));
    assert_eq!(again.evaluations, results.evaluations);

    // Changing one version's flags rebuilds and reruns only that version.
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("-DFAULTY_HANG", "-DFAULTY_HANG -DUNUSED");
    std::fs::write(&file, text).unwrap();
    let study = Study::load(&file).unwrap();
    let (_, stats) = run_local(&study, 2, weft_support::binary()).unwrap();
    assert_eq!((stats.built, stats.ran), (2, 12));
}

#[test]
fn strategies_built_and_run_alike_share_builds_and_runs() {
    let (_dir, file) = fixture();
    let strategy = |name: &str, cflags: &str| {
        format!(
            "\n[[strategy]]\nname = \"{name}\"\nkind = \"patch\"\npatch = \"monitor.patch\"\ncflags = \"{cflags}\"\n"
        )
    };
    let text = format!(
        "{}{}{}",
        std::fs::read_to_string(&file).unwrap(),
        strategy("SAME", ""),
        strategy("OTHER", "-DUNUSED")
    );
    std::fs::write(&file, text).unwrap();
    let study = Study::load(&file).unwrap();
    assert_eq!((study.runs_of(0), study.runs_of(1), study.runs_of(2)), (0, 0, 2));
    let (results, stats) = run_local(&study, 2, weft_support::binary()).unwrap();
    // plain, HAND (shared by SAME) and OTHER: 3 arms x 3 versions x 6 tests.
    assert_eq!((stats.built, stats.ran), (9, 54));
    assert_eq!(results.evaluations[1].strategy, "SAME");
    assert_eq!(results.evaluations[1].points, results.evaluations[0].points);
    assert_eq!(results.evaluations[2].points, results.evaluations[0].points);
}

#[test]
fn results_are_deterministic_for_a_seed() {
    let (_a, fa) = fixture();
    let (_b, fb) = fixture();
    let ra = run_local(&Study::load(&fa).unwrap(), 1, weft_support::binary())
        .unwrap()
        .0;
    let rb = run_local(&Study::load(&fb).unwrap(), 2, weft_support::binary())
        .unwrap()
        .0;
    assert_eq!(ra.evaluations, rb.evaluations);
    assert_eq!(ra.oracle, rb.oracle);
}

#[test]
fn bad_study_files_name_file_and_key() {
    let (_dir, file) = fixture();
    let text = std::fs::read_to_string(&file).unwrap();
    let cases = [
        (
            text.replace("percentages = [20, 50, 100]", "percentages = [50, 20]"),
            "study.percentages",
        ),
        (
            text.replace("kind = \"patch\"", "kind = \"magic\""),
            "strategy[0].kind",
        ),
        (
            text.replace("name = \"HAND\"", "name = \"plain\""),
            "strategy[0].name",
        ),
        (text.replace("name = \"n5\"", "name = \"n3\""), "test[1].name"),
        (
            text.replace("inputs = [\"n.txt\"]", "inputs = [\"../n.txt\"]"),
            "test[5]",
        ),
        (text.replace("draws = 3", "draws = \"x\""), "draws"),
        (text.replace("seed = 1", "seed = 1\nbogus = 2"), "bogus"),
    ];
    for (bad, key) in cases {
        let err = format!("{:#}", Study::parse(&bad, &file).unwrap_err());
        assert!(err.contains("study.toml") && err.contains(key), "{key}: {err}");
    }
    assert!(Study::load(Path::new("/no/such/study.toml")).is_err());
}

/// `weft experiment --plan DIR FILE`: the phase files it wrote.
fn plan(dir: &Path, file: &Path) -> Vec<String> {
    let out = weft_support::command()
        .args(["experiment", "--plan"])
        .arg(dir)
        .arg(file)
        .output()
        .expect("weft runs");
    weft_support::exited(&out, 0)
        .0
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn plan_then_collect_with_gnu_parallel() {
    setup_support::require_tool("parallel");
    let (dir, file) = fixture();
    let plan_dir = dir.path().join("plan");
    let phases = plan(&plan_dir, &file);
    assert_eq!(phases.len(), 2);
    // The runs phase: one line per build (2 arms x 3 versions).
    assert_eq!(std::fs::read_to_string(&phases[1]).unwrap().lines().count(), 6);
    for phase in phases {
        // The tasks keep their runs' timings, which the collection merges.
        let status = Command::new("parallel")
            .args(["--will-cite", "-j2", "--halt", "now,fail=1"])
            .env("WEFT_STUDY_TIMINGS", "1")
            .stdin(std::fs::File::open(&phase).unwrap())
            .status()
            .unwrap();
        assert!(status.success(), "phase {phase} failed");
    }
    let out = weft_support::command()
        .args(["experiment", "--collect"])
        .arg(&file)
        .output()
        .expect("weft runs");
    weft_support::exited(&out, 0);
    let oracle = std::fs::read_to_string(dir.path().join("report/matrices/oracle.csv")).unwrap();
    assert_eq!(
        oracle,
        "test,v1,v2\nn3,1,1\nn5,1,0\nn6,1,1\nn7,0,1\nn10,0,1\nfile,0,1\n"
    );
    for f in [
        "report.md",
        "report.json",
        "curves.svg",
        "tables/overall.csv",
        "tables/baseline.csv",
    ] {
        assert!(dir.path().join("report").join(f).exists(), "{f}");
    }
    // One shard per build's runs, merged (and removed) by the collection.
    assert!(!dir.path().join("work/shards").read_dir().unwrap().any(|_| true));
    let db = rusqlite::Connection::open(dir.path().join("work/study.sqlite")).unwrap();
    let count = |sql: &str| db.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    let timed = "SELECT count(*) FROM runs JOIN timings USING (arm, version, test) WHERE exec_us > 0";
    assert_eq!((count("SELECT count(*) FROM runs"), count(timed)), (36, 36));
    // Collecting with the runs of one build missing fails and names them:
    // drop them from the study database by planning again with a changed
    // test, re-executing every task but HAND/v1's runs.
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("timeout_secs = 1", "timeout_secs = 2");
    std::fs::write(&file, text).unwrap();
    for phase in plan(&plan_dir, &file) {
        let lines = std::fs::read_to_string(phase).unwrap();
        for line in lines.lines().filter(|l| !l.contains("run/HAND/v1")) {
            let status = Command::new("sh").arg("-c").arg(line).status().unwrap();
            assert!(status.success(), "{line}");
        }
    }
    let out = weft_support::command()
        .args(["experiment", "--collect"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("run HAND/v1/n3 is stale"), "{err}");
}
