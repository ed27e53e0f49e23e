//! The report's numbers do not depend on how runs are stored: reduced
//! studies give exactly the tables and matrices that the harness keeping a
//! directory per run gave (tests/golden/study-*, written by weft at commit
//! a37e4b6 from the same study files):
//! - tests/fixtures/experiment/calendar-tables: four faulty versions of
//!   examples/calendar-faults, the first 90 of its tests, a range and an
//!   invariant strategy (fast);
//! - tests/fixtures/experiment/gzip-tables: gzip 1.12 with faults v2 and
//!   v4 of examples/gzip-faults, its whole suite, ASCV3 (slow: ignored,
//!   run by scripts/test.sh).
//!
//! The per-version and baseline tables have since turned versions into
//! rows: they are compared cell by cell. Column names have since changed
//! to the report's one vocabulary ([`in_todays_words`]), and the curves
//! table lost its raw counts (in report.json).

use std::collections::BTreeMap;
use std::path::Path;

mod weft_support;

/// Every cell of a CSV table by (row label, column header).
fn cells(csv: &str) -> BTreeMap<(String, String), String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut cells = BTreeMap::new();
    for line in lines {
        let row: Vec<&str> = line.split(',').collect();
        for (h, v) in header.iter().zip(&row).skip(1) {
            cells.insert((row[0].to_string(), h.to_string()), v.to_string());
        }
    }
    cells
}

/// (strategy, version, measure) → value, from a per-version table whose
/// columns are named "<name> acc (%)" / "<name> pct" and whose rows are
/// the other names.
fn per_version(csv: &str, columns_are_versions: bool) -> BTreeMap<(String, String, String), String> {
    cells(csv)
        .into_iter()
        .filter_map(|((row, column), value)| {
            let (name, measure) = column.split_once(' ')?;
            let (strategy, version) = if columns_are_versions {
                (row, name.to_string())
            } else {
                (name.to_string(), row)
            };
            Some(((strategy, version, measure.to_string()), value))
        })
        .collect()
}

/// A golden table in the report's present words: the curves table without
/// its raw counts, the old names of its columns renamed.
fn in_todays_words(file: &str, csv: &str) -> String {
    let renamed = csv
        .replace(
            "Strategy,Percentage,Correct (%),False positives (%),False negatives (%)",
            "Strategy,Training %,Correct (% of runs),Missed failing runs (% of runs),\
             Alarms on passing runs (% of runs)",
        )
        .replace(
            "Failing runs flagged,False alarms",
            "Flagged failing runs,Alarms on passing runs",
        )
        .replace("Best accuracy,", "Best accuracy (%),")
        .replace("Percentage of 1s,", "All-pass accuracy (%),");
    if file != "tables/curves.csv" {
        return renamed;
    }
    renamed
        .lines()
        .map(|l| l.split(',').take(5).collect::<Vec<_>>().join(",") + "\n")
        .collect()
}

/// A report table without what was added after the golden files were
/// made: the kinds tables' alarms on the original's unseen runs (4th
/// column), and the rows of kinds that raised only those.
fn without_later_columns(file: &str, csv: &str) -> String {
    if !file.starts_with("tables/kinds-") {
        return csv.to_string();
    }
    csv.lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            cells.remove(3);
            cells
        })
        .filter(|cells| cells[1..] != ["0", "0", ""])
        .map(|cells| cells.join(",") + "\n")
        .collect()
}

/// Runs the fixture study `name` (with `@ROOT@` and `@TESTS@` replaced)
/// and compares its report with tests/golden/study-GOLDEN: the listed
/// files byte for byte, the per-version and baseline tables cell by cell.
fn compare_with_golden(name: &str, tests: Option<&str>, golden: &str, same: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let golden = root.join("tests/golden").join(golden);
    let tmp = tempfile::tempdir().unwrap();
    let tests_file = tmp.path().join("tests.txt");
    if let Some(tests) = tests {
        std::fs::write(&tests_file, tests).unwrap();
    }
    let study = std::fs::read_to_string(
        root.join("tests/fixtures/experiment")
            .join(name)
            .join("study.toml"),
    )
    .unwrap()
    .replace("@ROOT@", &root.display().to_string())
    .replace("@TESTS@", &tests_file.display().to_string());
    let file = tmp.path().join("study.toml");
    std::fs::write(&file, study).unwrap();
    weft_support::experiment(&file);
    let report = tmp.path().join("report");
    let read = |dir: &Path, f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    for f in same {
        assert_eq!(
            without_later_columns(f, &read(&report, f)),
            in_todays_words(f, &read(&golden, f)),
            "{f}"
        );
    }
    let before = per_version(
        &in_todays_words("", &read(&golden, "tables/per_version.csv")),
        true,
    );
    let mut after = per_version(&read(&report, "tables/per_version.csv"), false);
    after.retain(|(strategy, ..), _| strategy != "All-pass");
    assert_eq!(after, before);
    assert!(!before.is_empty());

    // The baseline table, transposed: (version, row) cells.
    let before: BTreeMap<_, _> = cells(&in_todays_words("", &read(&golden, "tables/baseline.csv")))
        .into_iter()
        .map(|((r, c), v)| ((c, r), v))
        .collect();
    assert_eq!(cells(&read(&report, "tables/baseline.csv")), before);
}

#[test]
fn calendar_study_tables_equal_the_per_run_directory_harness() {
    let all = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/calendar-faults/tests.txt"),
    )
    .unwrap();
    let first: String = all.lines().take(90).map(|l| format!("{l}\n")).collect();
    let same = [
        "tables/overall.csv",
        "tables/curves.csv",
        "tables/best_metrics.csv",
        "tables/kinds-INV.csv",
        "matrices/oracle.csv",
        "matrices/INV-25.csv",
        "matrices/INV-100.csv",
        "matrices/ASCV3-25.csv",
        "matrices/ASCV3-100.csv",
    ];
    compare_with_golden("calendar-tables", Some(&first), "study-calendar", &same);
}

#[test]
#[ignore = "slow: builds gzip six times (a few minutes); run by scripts/test.sh"]
fn gzip_study_tables_equal_the_per_run_directory_harness() {
    let same = [
        "tables/overall.csv",
        "tables/curves.csv",
        "tables/best_metrics.csv",
        "matrices/oracle.csv",
        "matrices/ASCV3-10.csv",
        "matrices/ASCV3-100.csv",
    ];
    compare_with_golden("gzip-tables", None, "study-gzip", &same);
}
