//! Weaving the strategy aspects over the fixture program with the `weft`
//! binary, building and running the woven program, and reading back what it
//! recorded with `weft ranges show --json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The fixture program (one file, prog.c).
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/strategies/prog")
}

/// An aspect of aspects/.
pub fn aspect(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects").join(name)
}

/// Runs `weft` with `args` in `dir`; panics with its output unless it
/// succeeds. Returns standard output.
pub fn weft(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("weft runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "weft {args:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Weaves `aspect` (with `--arg`s) over the fixture into `work/woven`;
/// returns the woven prog.c.
pub fn weave(work: &Path, aspect_name: &str, args: &[&str]) -> PathBuf {
    let woven = work.join("woven");
    let aspect = aspect(aspect_name);
    let fixture = fixture();
    let mut argv = vec!["weave", "--aspect", aspect.to_str().unwrap()];
    for arg in args {
        argv.extend(["--arg", arg]);
    }
    argv.extend(["--output", woven.to_str().unwrap(), fixture.to_str().unwrap()]);
    weft(work, &argv);
    walkdir::WalkDir::new(&woven)
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_name() == "prog.c")
        .map(|e| e.into_path())
        .unwrap_or_else(|| panic!("no prog.c under {}", woven.display()))
}

/// Compiles `source` with warnings as errors and runs it with its records
/// going to `work/records`; checks it prints what the original prints.
/// Returns the records directory.
pub fn build_and_run(work: &Path, source: &Path) -> PathBuf {
    let exe = work.join("prog");
    let gcc = Command::new("gcc")
        .args(["-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(source)
        .output()
        .expect("gcc runs");
    assert!(
        gcc.status.success(),
        "the woven code does not compile:\n{}\n--- {}:\n{}",
        String::from_utf8_lossy(&gcc.stderr),
        source.display(),
        std::fs::read_to_string(source).unwrap_or_default()
    );
    let records = work.join("records");
    let run = Command::new(&exe)
        .env("WEFT_OUT", &records)
        .output()
        .expect("the woven program runs");
    assert!(run.status.success());
    assert_eq!(String::from_utf8_lossy(&run.stdout), "58692 135.25 90 10 9.00\n");
    records
}

/// One monitored variable as `weft ranges show --json` reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub count: u64,
    pub min: serde_json::Value,
    pub max: serde_json::Value,
}

/// The ranges in `records`, by "kind function#variable:type".
pub fn ranges(work: &Path, records: &Path) -> BTreeMap<String, Seen> {
    let json = weft(
        work,
        &["ranges", "show", "--json", "--all", records.to_str().unwrap()],
    );
    let set: serde_json::Value = serde_json::from_str(&json).expect("range set JSON");
    let mut out = BTreeMap::new();
    for e in set["entries"].as_array().expect("entries") {
        let name = format!(
            "{} {}#{}:{}",
            e["kind"].as_str().unwrap(),
            e["function"].as_str().unwrap(),
            e["variable"].as_str().unwrap(),
            e["type"].as_str().unwrap()
        );
        let seen = Seen {
            count: e["count"].as_u64().unwrap(),
            min: e["min"].clone(),
            max: e["max"].clone(),
        };
        assert!(out.insert(name.clone(), seen).is_none(), "{name} has two entries");
    }
    out
}

/// Weaves, builds, runs and reads back: the ranges the strategy recorded.
pub fn monitor(aspect_name: &str, args: &[&str]) -> (tempfile::TempDir, BTreeMap<String, Seen>) {
    let work = tempfile::tempdir().unwrap();
    let woven = weave(work.path(), aspect_name, args);
    let records = build_and_run(work.path(), &woven);
    let ranges = ranges(work.path(), &records);
    (work, ranges)
}

/// The names of `ranges`, sorted.
pub fn names(ranges: &BTreeMap<String, Seen>) -> Vec<&str> {
    ranges.keys().map(String::as_str).collect()
}

/// Asserts the recorded min and max of `name` (JSON numbers).
pub fn assert_range(
    ranges: &BTreeMap<String, Seen>,
    name: &str,
    min: serde_json::Value,
    max: serde_json::Value,
) {
    let seen = ranges
        .get(name)
        .unwrap_or_else(|| panic!("{name} not monitored: {:?}", names(ranges)));
    assert_eq!((&seen.min, &seen.max), (&min, &max), "range of {name}");
}
