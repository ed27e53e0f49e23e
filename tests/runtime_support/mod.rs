//! Builds small C programs instrumented exactly as the weaver does (prelude
//! at the top, updates at the monitored points, epilogue at the end), runs
//! them and reads their record files back.

use std::path::PathBuf;
use std::process::{Command, Output};
use weft::ranges::load::{read_record, record_files};
use weft::ranges::record::Record;
use weft::ranges::{Key, TableSpec};

/// The warnings a woven unit must compile cleanly under.
pub const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-pedantic"];

/// A scratch directory for sources, binaries and records.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes `name` as woven by `table`: `body` between prelude and epilogue.
    pub fn weave(&self, name: &str, table: &TableSpec, body: &str) -> PathBuf {
        let text = format!("{}{body}{}", table.prelude(), table.epilogue());
        self.write(name, &text)
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, text).expect("write source");
        path
    }

    /// Runs gcc with the strict flags plus `args`; panics with its output
    /// when it fails.
    pub fn gcc(&self, args: &[&str]) {
        let out = Command::new("gcc")
            .args(STRICT)
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("run gcc");
        assert!(
            out.status.success(),
            "gcc {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs a built program with WEFT_OUT set to `out` (relative to the
    /// scratch directory).
    pub fn run(&self, exe: &str, out: &str) -> Output {
        Command::new(self.path(exe))
            .env("WEFT_OUT", self.path(out))
            .env("LD_LIBRARY_PATH", self.dir.path())
            .current_dir(self.dir.path())
            .output()
            .expect("run program")
    }

    /// Every record file under `out`, parsed, in path order.
    pub fn records(&self, out: &str) -> Vec<(PathBuf, Record)> {
        record_files(&self.path(out))
            .expect("list records")
            .into_iter()
            .map(|p| {
                let r = read_record(&p).unwrap_or_else(|e| panic!("{e}"));
                (p, r)
            })
            .collect()
    }
}

/// The entry of `record` for `variable`.
pub fn entry<'a>(record: &'a Record, variable: &str) -> &'a (Key, weft::ranges::Range) {
    record
        .entries
        .iter()
        .find(|(k, _)| k.variable == variable)
        .unwrap_or_else(|| panic!("no entry for {variable}"))
}

/// Asserts the directory holds exactly `n` records and returns them.
pub fn expect_records(records: Vec<(PathBuf, Record)>, n: usize) -> Vec<Record> {
    let names: Vec<_> = records.iter().map(|(p, _)| p.display().to_string()).collect();
    assert_eq!(records.len(), n, "records: {names:?}");
    records.into_iter().map(|(_, r)| r).collect()
}
