//! A weave that changes nothing reproduces all of gzip 1.12 byte for byte,
//! with the same modes and modification times.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use filetime::FileTime;
use weft::output::{Selection, scan, write_tree};
use weft::program::Program;

const GZIP: &str = "third_party/gzip-1.12";

#[test]
fn a_no_op_weave_of_gzip_reproduces_it() {
    let gzip = Path::new(env!("CARGO_MANIFEST_DIR")).join(GZIP);
    assert!(gzip.is_dir(), "gzip sources missing: run scripts/fetch-gzip.sh");
    let entries = scan(std::slice::from_ref(&gzip), &Selection::new(&[], &[]).unwrap()).unwrap();
    let mut program = Program::load(&entries, None).unwrap();
    assert!(program.files().len() > 50, "all .c files are woven");
    program.commit().unwrap();
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
