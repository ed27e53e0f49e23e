//! The non-termination corpus (tests/nonterm/corpus): its directory and
//! its manifest, corpus.toml, which the corpus tests all read.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde::Deserialize;

/// corpus.toml: every program of the corpus.
#[derive(Deserialize)]
pub struct Corpus {
    pub program: Vec<Program>,
}

/// One program, `NAME.c`, with its terminating twin `NAME.twin.c`.
#[derive(Deserialize)]
#[allow(dead_code)]
pub struct Program {
    pub name: String,
    /// The bug class (`read-eof`, `signed-overflow`, …).
    pub class: String,
    /// The argument both are run with.
    pub arg: String,
    /// The period of the cycle the monitor must report, when it is exact.
    pub period: Option<u64>,
    /// Whether the loop's state decides its next iteration by itself.
    pub exact: bool,
}

/// The corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nonterm/corpus")
}

/// The manifest, read and parsed.
pub fn corpus() -> Corpus {
    let path = corpus_dir().join("corpus.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl Program {
    /// Builds this program woven (from `woven`), its twin woven, and its
    /// twin as written into `dir` with `gcc(source, exe)`, and runs both
    /// twins with `run(exe, arg, records)`: the woven twin must exit 0 and
    /// print what the plain one prints. The woven program's path and the
    /// woven twin's records, for the caller to judge.
    #[allow(dead_code)]
    pub fn build_and_run_twins(
        &self,
        dir: &Path,
        woven: &Path,
        gcc: impl Fn(&Path, &Path),
        run: impl Fn(&Path, &str, &Path) -> Output,
    ) -> (PathBuf, PathBuf) {
        let exe = |suffix: &str| dir.join(format!("{}{suffix}", self.name));
        gcc(&woven.join(format!("{}.c", self.name)), &exe(""));
        gcc(&woven.join(format!("{}.twin.c", self.name)), &exe(".twin"));
        gcc(
            &corpus_dir().join(format!("{}.twin.c", self.name)),
            &exe(".plain"),
        );
        let twin_out = dir.join(format!("{}.twin.out", self.name));
        let twin = run(&exe(".twin"), &self.arg, &twin_out);
        let plain = run(&exe(".plain"), &self.arg, &dir.join("unused"));
        assert!(twin.status.success(), "{} twin: {:?}", self.name, twin.status);
        assert_eq!(
            twin.stdout, plain.stdout,
            "{}: the twin's output changed",
            self.name
        );
        (exe(""), twin_out)
    }
}
