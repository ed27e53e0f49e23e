//! Weaving a file parsed in chunks writes the same bytes as weaving it
//! parsed whole: `weft weave` run with `$WEFT_CHUNK_BYTES=1` (a chunk per
//! top-level item, wherever a cut is possible) and `$WEFT_HELD_BYTES=0`
//! (one chunk's tree held, so every walk parses chunks again) against the
//! default (these
//! files are far below the 64 KiB a view must exceed to be cut), with
//! function-entry counters, ASCV3 (passes, semantics, several commits),
//! an insert before every function (attribute macros above one) and two
//! applies committed in turn, on a
//! fixture of `#if` groups around functions, macros over several lines and
//! comments between declarations, and on gzip's own sources. Also with
//! chunks of 4 KiB and trees held within a budget of some chunks, the
//! case of a large file (a chunk that does not fit followed by a shorter
//! one that does).

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};

/// Two applies, the first committed (growing the file) before the second
/// selects.
const TWO_APPLIES: &str = "aspectdef A\n  select file.function end\n  apply\n    $function.insert before 'extern unsigned long hits;';\n  end\n  select function.body.first_stmt end\n  apply\n    $first_stmt.insert before 'hits++;';\n  end\nend\n";

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

/// Chunks of one item each, one tree held at a time.
const ITEM_CHUNKS: Chunking = Chunking {
    chunk_bytes: 1,
    held_bytes: 0,
};

/// How `weft weave` cuts a file: `$WEFT_CHUNK_BYTES` and `$WEFT_HELD_BYTES`.
#[derive(Clone, Copy, Debug)]
struct Chunking {
    chunk_bytes: usize,
    held_bytes: usize,
}

/// The woven tree and the standard output of `weft weave --aspect aspect
/// input`, cut by `chunking` when given, else with the defaults.
fn weave(
    aspect: &Path,
    input: &Path,
    out: &Path,
    chunking: Option<Chunking>,
) -> (Vec<(PathBuf, Vec<u8>)>, String) {
    let mut cmd = weft_support::command();
    cmd.args(["weave", "--aspect"])
        .arg(aspect)
        .arg("--output")
        .arg(out)
        .arg(input);
    match chunking {
        Some(c) => cmd
            .env("WEFT_CHUNK_BYTES", c.chunk_bytes.to_string())
            .env("WEFT_HELD_BYTES", c.held_bytes.to_string()),
        None => cmd.env_remove("WEFT_CHUNK_BYTES").env_remove("WEFT_HELD_BYTES"),
    };
    let run = cmd.output().expect("run weft");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{}: {stderr}", aspect.display());
    (tree(out), String::from_utf8_lossy(&run.stdout).into_owned())
}

/// Asserts that every aspect weaves `input` to the same bytes and counts
/// cut by each of `chunkings` as by the defaults (under which these files
/// are parsed whole), and changes some file.
fn same_in_chunks(input: &Path, aspects: &[PathBuf], chunkings: &[Chunking]) {
    let scratch = tempfile::tempdir().unwrap();
    let original = tree(input);
    for (k, aspect) in aspects.iter().enumerate() {
        let whole = weave(aspect, input, &scratch.path().join(format!("whole{k}")), None);
        assert_ne!(whole.0, original, "{} wove nothing", aspect.display());
        for (c, &chunking) in chunkings.iter().enumerate() {
            let chunked = weave(
                aspect,
                input,
                &scratch.path().join(format!("chunked{k}-{c}")),
                Some(chunking),
            );
            for ((path, a), (_, b)) in whole.0.iter().zip(&chunked.0) {
                assert!(
                    a == b,
                    "{} differs cut by {chunking:?} with {}",
                    path.display(),
                    aspect.display()
                );
            }
            assert_eq!(whole, chunked, "{} cut by {chunking:?}", aspect.display());
        }
    }
}

fn aspects(scratch: &Path) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let before = scratch.join("before.lara");
    std::fs::write(&before, BEFORE_FUNCTIONS).unwrap();
    let two_applies = scratch.join("two-applies.lara");
    std::fs::write(&two_applies, TWO_APPLIES).unwrap();
    vec![
        root.join("benches/entry-counters.lara"),
        root.join("aspects/ascv3.lara"),
        before,
        two_applies,
    ]
}

#[test]
fn the_fixture_weaves_the_same_in_chunks() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("src");
    std::fs::create_dir(&input).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chunks/items.c");
    std::fs::copy(fixture, input.join("items.c")).unwrap();
    same_in_chunks(&input, &aspects(scratch.path()), &[ITEM_CHUNKS]);
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
    same_in_chunks(&input, &aspects(scratch.path()), &[ITEM_CHUNKS]);
}

/// The function `scripts/bench-scaling.py` repeats to make its files.
const GENERATED_FUNCTION: &str = "int f{i}(int x, int y)\n{\n  int s = 0;\n  for (int i = 0; i < x; i++) {\n    s += i * y;\n  }\n  return s + {i};\n}\n\n";

/// The file of the weave scaling benchmark cut in 4 KiB chunks whose trees
/// are held within a budget of one, two or three chunks and 2,000 bytes:
/// the first parse keeps the trees of the chunks that fit, then meets one
/// that does not, then the last, shorter one, that does (and the views
/// ASCV3 and two applies commit grow past the budget so). That last tree
/// was kept in the place of the chunk that did not fit, and the 1 MB file
/// of the benchmark lost 478 of ASCV3's 35,480 join points so.
#[test]
fn trees_held_within_a_budget_weave_the_same() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("src");
    std::fs::create_dir(&input).unwrap();
    // 200 functions, 21,980 bytes: five chunks of 4,107 to 4,170 bytes
    // and a last one of 1,334.
    let text: String = (0..200)
        .map(|i| GENERATED_FUNCTION.replace("{i}", &i.to_string()))
        .collect();
    std::fs::write(input.join("gen.c"), text).unwrap();
    let chunkings: Vec<Chunking> = (1..=3)
        .map(|k| Chunking {
            chunk_bytes: 4096,
            held_bytes: k * 4096 + 2000,
        })
        .collect();
    same_in_chunks(&input, &aspects(scratch.path()), &chunkings);
}
