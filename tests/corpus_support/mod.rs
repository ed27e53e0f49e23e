//! The non-termination corpus (tests/nonterm/corpus): its directory and
//! its manifest, corpus.toml, which the corpus tests all read.

use std::path::{Path, PathBuf};

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
