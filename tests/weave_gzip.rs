//! A weave that changes nothing reproduces all of gzip 1.12 byte for byte,
//! with the same modes and modification times.

mod aspect_support;
#[path = "setup_support/mod.rs"]
mod setup_support;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use filetime::FileTime;
use weft::output::{Selection, scan, write_tree};
use weft::program::Program;

#[test]
fn a_no_op_weave_of_gzip_reproduces_it() {
    let gzip = setup_support::gzip_dir();
    assert!(gzip.is_dir(), "gzip sources missing: run scripts/fetch-gzip.sh");
    let entries = scan(std::slice::from_ref(&gzip), &Selection::new(&[], &[]).unwrap()).unwrap();
    let mut program = Program::load(&entries, None).unwrap();
    assert!(program.files().len() > 50, "all .c files are woven");
    program.commit();
    let woven = program.woven();
    assert!(woven.is_empty());

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    write_tree(&entries, &woven, &out).unwrap();
    let mut compared = 0;
    for entry in walkdir::WalkDir::new(&gzip) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(&gzip).unwrap();
        let copy = out.join("gzip-1.12").join(rel);
        let (a, b) = (
            fs::symlink_metadata(entry.path()).unwrap(),
            fs::symlink_metadata(&copy).unwrap(),
        );
        assert_eq!(a.file_type(), b.file_type(), "{}", rel.display());
        assert_eq!(
            a.permissions().mode(),
            b.permissions().mode(),
            "{}",
            rel.display()
        );
        assert_eq!(
            FileTime::from_last_modification_time(&a),
            FileTime::from_last_modification_time(&b),
            "{}",
            rel.display()
        );
        if a.is_file() {
            assert!(
                fs::read(entry.path()).unwrap() == fs::read(&copy).unwrap(),
                "{}",
                rel.display()
            );
            compared += 1;
        }
    }
    assert!(compared > 100);
}

/// After an instrumenting weave, the files as re-parsed from the woven
/// edits (spliced into the old view wherever possible) are understood
/// exactly as a fresh parse of the woven text understands them.
#[test]
fn re_parsing_woven_gzip_matches_a_fresh_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gzip = setup_support::gzip_dir();
    assert!(gzip.is_dir(), "gzip sources missing: run scripts/fetch-gzip.sh");
    let entries = scan(std::slice::from_ref(&gzip), &Selection::new(&[], &[]).unwrap()).unwrap();
    let aspect = weft::aspect::load(&root.join("benches/instrument.lara"), &weft::Limits::default()).unwrap();
    let mut program = Program::load(&entries, None).unwrap();
    aspect_support::run_aspect(&aspect, &[], &mut program).unwrap();
    let front = program.front_end().clone();
    let changed = program.woven().len();
    assert!(changed > 50, "the aspect changes most files ({changed})");
    for file in program.files() {
        let again = front.parse(&file.path, file.text.clone());
        let name = file.path.display();
        assert_eq!(file.view, again.view, "{name}");
        assert_eq!(
            file.whole_tree().root_node().to_sexp(),
            again.whole_tree().root_node().to_sexp(),
            "{name}"
        );
        assert_eq!(file.problems, again.problems, "{name}");
    }
}

/// A file given by itself is understood as well as with its directory:
/// the macros of the headers beside it are learned too.
#[test]
fn a_gzip_file_given_alone_is_fully_understood() {
    use weft::engine::Host;
    let gzip_c = setup_support::gzip_dir().join("gzip.c");
    assert!(
        gzip_c.is_file(),
        "gzip sources missing: run scripts/fetch-gzip.sh"
    );
    let entries = scan(&[gzip_c], &Selection::new(&[], &[]).unwrap()).unwrap();
    let mut program = Program::load(&entries, None).unwrap();
    let root = program.root();
    let functions = program.select(&root, "function").unwrap();
    assert_eq!(functions.len(), 32, "gzip.c defines 32 functions, all understood");
}
