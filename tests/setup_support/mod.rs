//! What tests need from the machine, found in one place: each helper fails
//! with the exact command that provides what is missing, so a plain
//! `cargo test` on a fresh machine says what to run instead of failing
//! obscurely. `scripts/test.sh` provides all of it.

use std::path::PathBuf;
use std::process::Command;

/// gzip 1.12's pristine sources, which the real-program tests parse,
/// weave and build.
#[allow(dead_code)]
pub fn gzip_dir() -> PathBuf {
    third_party("gzip-1.12", "gzip.c", "scripts/fetch-gzip.sh")
}

/// dcraw 9.28's pristine sources (Debian's source package), the program of
/// the real hang (examples/dcraw-hang).
#[allow(dead_code)]
pub fn dcraw_dir() -> PathBuf {
    third_party(
        "dcraw-9.28",
        "dcraw.c",
        "scripts/fetch-debian-source.sh dcraw 9.28-3 dcraw.c third_party/dcraw-9.28",
    )
}

/// Daikon 5.8.25's jars: `$WEFT_DAIKON_DIR`, else `../shared/daikon`
/// beside the checkout. Java must be installed too ([`require_tool`]).
#[allow(dead_code)]
pub fn daikon_dir() -> PathBuf {
    let dir = std::env::var_os("WEFT_DAIKON_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/daikon"),
        PathBuf::from,
    );
    assert!(
        dir.join("daikon-5.8.25.jar").is_file(),
        "Daikon 5.8.25 is missing from {}: set WEFT_DAIKON_DIR to the folder of its jars",
        dir.display()
    );
    dir
}

/// `third_party/NAME`, which must hold `file`; else the failure names
/// `fetch`, the command that fetches it alone.
fn third_party(name: &str, file: &str, fetch: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("third_party")
        .join(name);
    assert!(
        dir.join(file).is_file(),
        "{name} is missing from {}: run scripts/test.sh (the README's test command), \
         or {fetch} to fetch it alone",
        dir.display()
    );
    dir
}

/// Fails unless `tool` (a Debian package of the same name) is on the PATH.
#[allow(dead_code)]
pub fn require_tool(tool: &str) {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "`{tool}` is not installed: run scripts/test.sh (the README's test command), \
         or scripts/install-deps.sh to install the tools the tests need (as root)"
    );
}

/// Says what a slow real-program test is doing now, on the terminal even
/// while the test harness captures output (a direct write to stderr is not
/// captured), so minutes of `configure`, `make` and `make check` are not
/// silent.
#[allow(dead_code)]
pub fn progress(what: &str) {
    use std::io::Write as _;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr().lock(), "[{test}] {what}");
}

/// Runs `script` with `sh -c` in `dir`: whether it succeeded, and its
/// stdout and stderr together (for the failure message).
#[allow(dead_code)]
pub fn sh(dir: &std::path::Path, script: &str) -> (bool, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .output()
        .expect("sh runs");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), log)
}

/// The one golden-file check of the test suite: `actual` against the
/// committed expectation at `expected`. With `WEFT_BLESS=1` it first writes
/// `actual` there (review the diff before committing). Returns a unified diff
/// naming the file when they differ, `None` when they agree.
#[allow(dead_code)]
pub fn golden_mismatch(expected: &std::path::Path, actual: &str) -> Option<String> {
    if std::env::var_os("WEFT_BLESS").is_some() {
        if let Some(dir) = expected.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(expected, actual).unwrap();
    }
    let committed = std::fs::read_to_string(expected).unwrap_or_default();
    (committed != actual).then(|| {
        format!(
            "{} differs from what the test produced (rerun with WEFT_BLESS=1 to accept it):\n{}",
            expected.display(),
            similar::TextDiff::from_lines(&committed, actual).unified_diff()
        )
    })
}

/// Asserts that every file of `whole`'s report tables and matrices is the
/// same in `resumed`'s report (a resumed study against one never
/// interrupted); how many files were compared.
#[allow(dead_code)]
pub fn assert_same_report_tables(resumed: &std::path::Path, whole: &std::path::Path) -> usize {
    let mut compared = 0;
    for sub in ["tables", "matrices"] {
        for entry in std::fs::read_dir(whole.join("report").join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let other = resumed.join("report").join(sub).join(path.file_name().unwrap());
            assert_eq!(
                std::fs::read_to_string(&other).unwrap(),
                std::fs::read_to_string(&path).unwrap(),
                "{}",
                path.display()
            );
            compared += 1;
        }
    }
    compared
}

/// Writes `source` as `dir/name` and gives its path.
#[allow(dead_code)]
pub fn write(dir: &std::path::Path, name: &str, source: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path.display().to_string()
}
