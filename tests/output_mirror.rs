//! Mirroring a tree: modes, modification times, symbolic links, atomic
//! replacement of the output.

#![cfg(unix)]

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use filetime::FileTime;
use weft::output::{EntryKind, Selection, scan, write_tree};

/// A small project: a subdirectory, an executable script, a symlink, C files.
fn project(root: &Path) -> PathBuf {
    let src = root.join("proj");
    fs::create_dir_all(src.join("lib")).unwrap();
    fs::write(src.join("main.c"), "int main(void) { return 0; }\n").unwrap();
    fs::write(src.join("lib/util.c"), "int util;\n").unwrap();
    fs::write(src.join("configure"), "#!/bin/sh\necho ok\n").unwrap();
    fs::set_permissions(src.join("configure"), fs::Permissions::from_mode(0o755)).unwrap();
    symlink("main.c", src.join("link.c")).unwrap();
    let old = FileTime::from_unix_time(1_000_000_000, 0);
    for f in ["main.c", "lib/util.c", "configure"] {
        filetime::set_file_mtime(src.join(f), old).unwrap();
    }
    filetime::set_file_mtime(src.join("lib"), old).unwrap();
    src
}

fn mtime(p: &Path) -> FileTime {
    FileTime::from_last_modification_time(&fs::symlink_metadata(p).unwrap())
}

#[test]
fn an_unchanged_tree_is_copied_with_modes_times_and_links() {
    let tmp = tempfile::tempdir().unwrap();
    let src = project(tmp.path());
    let entries = scan(std::slice::from_ref(&src), &Selection::new(&[], &[]).unwrap()).unwrap();
    let link = entries.iter().find(|e| e.dest.ends_with("link.c")).unwrap();
    assert_eq!(link.kind, EntryKind::Symlink);
    let out = tmp.path().join("out");
    write_tree(&entries, &HashMap::<PathBuf, String>::new(), &out).unwrap();

    let copy = out.join("proj");
    for f in ["main.c", "lib/util.c", "configure", "lib"] {
        assert_eq!(mtime(&src.join(f)), mtime(&copy.join(f)), "{f}");
    }
    assert_eq!(
        fs::read(src.join("main.c")).unwrap(),
        fs::read(copy.join("main.c")).unwrap()
    );
    let mode = fs::metadata(copy.join("configure")).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
    assert_eq!(
        fs::read_link(copy.join("link.c")).unwrap(),
        PathBuf::from("main.c")
    );
}

#[test]
fn woven_files_get_new_text_and_a_fresh_time_and_the_old_output_is_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let src = project(tmp.path());
    let out = tmp.path().join("out");
    fs::create_dir_all(out.join("stale")).unwrap();
    let entries = scan(
        std::slice::from_ref(&src),
        &Selection::new(&[], &["lib/*".into()]).unwrap(),
    )
    .unwrap();
    let util = entries.iter().find(|e| e.dest.ends_with("util.c")).unwrap();
    assert_eq!(util.kind, EntryKind::File { weave: false });
    let woven = HashMap::from([(src.join("main.c"), "/* woven */\n".to_string())]);
    write_tree(&entries, &woven, &out).unwrap();
    assert_eq!(
        fs::read_to_string(out.join("proj/main.c")).unwrap(),
        "/* woven */\n"
    );
    assert!(mtime(&out.join("proj/main.c")) > mtime(&src.join("main.c")));
    assert!(!out.join("stale").exists());
}

#[test]
fn a_failed_write_leaves_the_previous_output_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let src = project(tmp.path());
    let out = tmp.path().join("out");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("keep"), "previous run").unwrap();
    let entries = scan(std::slice::from_ref(&src), &Selection::new(&[], &[]).unwrap()).unwrap();
    fs::remove_file(src.join("configure")).unwrap();
    assert!(write_tree(&entries, &HashMap::<PathBuf, String>::new(), &out).is_err());
    assert_eq!(fs::read_to_string(out.join("keep")).unwrap(), "previous run");
    let leftovers: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".weft"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn file_inputs_and_missing_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let src = project(tmp.path());
    let sel = Selection::new(&[], &[]).unwrap();
    let entries = scan(&[src.join("main.c")], &sel).unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].dest, PathBuf::from("main.c"));
    assert_eq!(entries[0].kind, EntryKind::File { weave: true });
    assert!(scan(&[tmp.path().join("nope")], &sel).is_err());
    assert!(scan(&[src.join("main.c"), src.join("main.c")], &sel).is_err());
}
