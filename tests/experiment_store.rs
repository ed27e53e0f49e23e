//! The study database: an interrupted study resumes from it, a foreign or
//! damaged file is a clear error that leaves it as it is, and the runs
//! leave nothing else on disk.

mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// The tiny fixture's program with its hand-patched range monitor (HAND)
/// and `n` tests, each sleeping `sleep` seconds before running the
/// program.
fn study(n: usize, sleep: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/experiment/tiny/src");
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::copy(src.join("calc.c"), dir.path().join("src/calc.c")).unwrap();
    std::fs::copy(src.join("../monitor.patch"), dir.path().join("monitor.patch")).unwrap();
    let mut toml = String::from(
        "[study]\nname = \"store\"\nsource = \"src\"\nbuild = [\"cc $CFLAGS -o calc calc.c\"]\n\
         draws = 3\npercentages = [50, 100]\n\
         [[version]]\nname = \"original\"\n[[version]]\nname = \"v1\"\ncflags = \"-DFAULTY\"\n\
         [[strategy]]\nname = \"HAND\"\nkind = \"patch\"\npatch = \"monitor.patch\"\n",
    );
    for i in 0..n {
        toml.push_str(&format!(
            "[[test]]\nname = \"t{i}\"\ncmd = 'sleep {sleep}; \"$WEFT_BUILD/calc\" {}'\n",
            i % 12
        ));
    }
    let file = dir.path().join("study.toml");
    std::fs::write(&file, toml).unwrap();
    (dir, file)
}

fn experiment(file: &Path) -> Output {
    weft_support::command()
        .args(["experiment", "-j", "1"])
        .arg(file)
        .output()
        .expect("weft runs")
}

/// (runs done, runs reused) from the counters line.
fn runs(out: &Output) -> (usize, usize) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let line = err.lines().find(|l| l.starts_with("builds:")).unwrap();
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    (numbers[2], numbers[3])
}

fn stored_runs(db: &Path) -> usize {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn.query_row("SELECT count(*) FROM runs", [], |r| r.get::<_, i64>(0))
        .map_or(0, |n| n as usize)
}

#[test]
fn an_interrupted_study_resumes_without_redoing_finished_runs() {
    let (dir, file) = study(40, "0.05");
    let db = dir.path().join("work/study.sqlite");
    let mut child = weft_support::command()
        .args(["experiment", "-j", "1"])
        .arg(&file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !(db.exists() && stored_runs(&db) >= 5) {
        assert!(start.elapsed() < Duration::from_secs(60), "no run was committed");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the study ended before it was interrupted"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let finished = stored_runs(&db);
    assert!(finished < 160, "the study was not interrupted");

    let (done, reused) = runs(&experiment(&file));
    assert_eq!(reused, finished);
    assert_eq!(done + reused, 160);
    // The runs' scratch directories went with the execution: the work
    // directory holds the builds and the database, nothing per run.
    let files = walkdir::WalkDir::new(dir.path().join("work"))
        .into_iter()
        .filter(|e| e.as_ref().unwrap().file_type().is_file())
        .count();
    assert!(
        files < 25,
        "{files} files in the work directory (4 builds, the database)"
    );
    let oracle = std::fs::read_to_string(dir.path().join("report/matrices/oracle.csv")).unwrap();
    assert!(oracle.starts_with("test,v1\nt0,1\n"), "{oracle}");

    // Its tables and matrices are those of the same study never interrupted.
    let (whole, whole_file) = study(40, "0");
    assert_eq!(runs(&experiment(&whole_file)), (160, 0));
    let compared = setup_support::assert_same_report_tables(dir.path(), whole.path());
    assert!(compared >= 10, "{compared} files compared");
}

/// Rows of the study database's `timings` table whose times are all set.
fn timed_runs(db: &Path) -> usize {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    conn.query_row(
        "SELECT count(*) FROM timings WHERE finished_ns > 0 AND exec_us > 0",
        [],
        |r| r.get::<_, i64>(0),
    )
    .unwrap() as usize
}

#[test]
fn timings_are_kept_only_when_asked_for() {
    let (dir, file) = study(6, "0");
    let out = weft_support::command()
        .args(["experiment", "-j", "1"])
        .arg(&file)
        .env("WEFT_STUDY_TIMINGS", "1")
        .output()
        .unwrap();
    assert_eq!(runs(&out), (24, 0));
    let db = dir.path().join("work/study.sqlite");
    assert_eq!(timed_runs(&db), 24);
    assert_eq!(stored_runs(&db), 24);
}

#[test]
fn a_foreign_or_damaged_database_is_an_error_and_is_left_as_it_is() {
    let (dir, file) = study(6, "0");
    assert_eq!(runs(&experiment(&file)), (24, 0));
    let db = dir.path().join("work/study.sqlite");
    // Not asked for, no run's timings are kept.
    assert_eq!((stored_runs(&db), timed_runs(&db)), (24, 0));
    let finished = std::fs::read(&db).unwrap();

    let foreign = dir.path().join("foreign.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE runs(x); INSERT INTO runs VALUES (1);")
        .unwrap();
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "not a study database",
            b"just some text, not SQLite at all\n".repeat(200),
        ),
        ("another application", std::fs::read(&foreign).unwrap()),
        ("", finished[..finished.len() / 2].to_vec()),
    ];
    // A study database of an older format (runs named by text) and of a
    // newer one: refused, never misread. ("weft" is the application id.)
    const WEFT: i32 = 0x7765_6674;
    for (says, version) in [("of format 3,", 3), ("of format 99,", 99)] {
        let other = dir.path().join(format!("format-{version}.sqlite"));
        rusqlite::Connection::open(&other)
            .unwrap()
            .execute_batch(&format!(
                "PRAGMA application_id = {WEFT}; PRAGMA user_version = {version};
                 CREATE TABLE runs(arm TEXT, version TEXT, test TEXT, key BLOB);
                 INSERT INTO runs VALUES ('HAND', 'v1', 't0', x'00');"
            ))
            .unwrap();
        cases.push((says, std::fs::read(&other).unwrap()));
    }
    for (says, bytes) in cases {
        std::fs::write(&db, &bytes).unwrap();
        let (_, err) = weft_support::exited(&experiment(&file), 2);
        assert!(err.contains("study.sqlite") && err.contains(says), "{err}");
        assert!(
            err.contains("left as it is") && !err.contains("panicked"),
            "{err}"
        );
        assert_eq!(std::fs::read(&db).unwrap(), bytes, "the file was changed");
    }
    // Put back, the finished runs are all there.
    std::fs::write(&db, &finished).unwrap();
    assert_eq!(runs(&experiment(&file)), (0, 24));
}
