//! Weaving a file parsed in chunks writes the same bytes as weaving it
//! parsed whole: `weft weave` run with `$WEFT_CHUNK_BYTES=1` (a chunk per
//! top-level item, wherever a cut is possible) and `$WEFT_HELD_BYTES=0`
//! (one chunk's tree held, so every walk parses chunks again) against the
//! default (these
//! files are far below the 64 KiB a view must exceed to be cut), with
//! function-entry counters, ASCV3 (passes, semantics, several commits) and
//! an insert before every function (attribute macros above one), on a
//! fixture of `#if` groups around functions, macros over several lines and
//! comments between declarations, and on gzip's own sources.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};

const BEFORE_FUNCTIONS: &str = "aspectdef A\n  select file.function end\n  apply\n    $function.insert before 'extern unsigned long hits;';\n  end\nend\n";

/// The files of `dir`, relative path and bytes, sorted.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walk(dir) {
        out.push((
            entry.strip_prefix(dir).unwrap().to_path_buf(),
            std::fs::read(&entry).unwrap(),
        ));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .flat_map(|p| if p.is_dir() { walk(&p) } else { vec![p] })
        .collect()
}

/// The woven tree and the standard output of `weft weave --aspect aspect
/// input`, with `chunk_bytes` as `$WEFT_CHUNK_BYTES` and one tree held
/// when given.
fn weave(
    aspect: &Path,
    input: &Path,
    out: &Path,
    chunk_bytes: Option<&str>,
) -> (Vec<(PathBuf, Vec<u8>)>, String) {
    let mut cmd = weft_support::command();
    cmd.args(["weave", "--aspect"])
        .arg(aspect)
        .arg("--output")
        .arg(out)
        .arg(input);
    match chunk_bytes {
        Some(bytes) => cmd.env("WEFT_CHUNK_BYTES", bytes).env("WEFT_HELD_BYTES", "0"),
        None => cmd.env_remove("WEFT_CHUNK_BYTES"),
    };
    let run = cmd.output().expect("run weft");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{}: {stderr}", aspect.display());
    (tree(out), String::from_utf8_lossy(&run.stdout).into_owned())
}

/// Asserts that every aspect weaves `input` to the same bytes in chunks as
/// whole, and changes some file.
fn same_in_chunks(input: &Path, aspects: &[PathBuf]) {
    let scratch = tempfile::tempdir().unwrap();
    let original = tree(input);
    for (k, aspect) in aspects.iter().enumerate() {
        let whole = weave(aspect, input, &scratch.path().join(format!("whole{k}")), None);
        let chunked = weave(
            aspect,
            input,
            &scratch.path().join(format!("chunked{k}")),
            Some("1"),
        );
        assert_ne!(whole.0, original, "{} wove nothing", aspect.display());
        for ((path, a), (_, b)) in whole.0.iter().zip(&chunked.0) {
            assert!(
                a == b,
                "{} differs in chunks with {}",
                path.display(),
                aspect.display()
            );
        }
        assert_eq!(whole, chunked, "{}", aspect.display());
    }
}

fn aspects(scratch: &Path) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let before = scratch.join("before.lara");
    std::fs::write(&before, BEFORE_FUNCTIONS).unwrap();
    vec![
        root.join("benches/entry-counters.lara"),
        root.join("aspects/ascv3.lara"),
        before,
    ]
}

#[test]
fn the_fixture_weaves_the_same_in_chunks() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("src");
    std::fs::create_dir(&input).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chunks/items.c");
    std::fs::copy(fixture, input.join("items.c")).unwrap();
    same_in_chunks(&input, &aspects(scratch.path()));
}

#[test]
fn gzip_weaves_the_same_in_chunks() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("gzip");
    std::fs::create_dir(&input).unwrap();
    for entry in std::fs::read_dir(setup_support::gzip_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "c" || e == "h") {
            std::fs::copy(&path, input.join(path.file_name().unwrap())).unwrap();
        }
    }
    same_in_chunks(&input, &aspects(scratch.path()));
}
