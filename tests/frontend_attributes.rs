//! Attributes alone on their line in a conditional group before a
//! definition (tests/fixtures/attributes): `__attribute__((constructor))`
//! under `#if defined(__GNUC__)`, an object-like attribute macro from the
//! project's header with a comment after it, one with arguments after a
//! comment line, and one with arguments defined outside the tree weft is
//! given (include/early.h) in a group with an `#else`. Every function is
//! understood with no region reported, and code inserted before each
//! function goes before the group, so each constructor stays one: woven,
//! built with warnings as errors (an attribute that lands on an inserted
//! declaration is a warning), the program prints what the original
//! prints.

mod program_support;

mod frontend_support;
mod weft_support;
use std::path::{Path, PathBuf};

use weft::c::FileHealth;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/attributes")
}

#[test]
fn attributes_in_compiler_groups_are_understood_and_not_reported() {
    let (front_end, path, text) = frontend_support::front_end_and_file(&fixture().join("src"), "prog.c");
    let health = FileHealth::of_passes(&front_end.parse_passes(&path, text));
    assert_eq!(
        (health.functions, health.functions_ok),
        (5, 5),
        "{:?}",
        health.regions
    );
    assert!(health.regions.is_empty(), "{:?}", health.regions);
}

/// Builds `dir/prog.c` against the fixture's headers with warnings as
/// errors and runs it: its stdout.
fn build_and_run(dir: &Path, exe: &Path) -> String {
    let include = fixture().join("include");
    let include = format!("-I{}", include.display());
    program_support::build_strict(&dir.join("prog.c"), exe, &["-std=gnu99", &include]);
    program_support::run_ok(exe, &[], None).0
}

#[test]
fn inserts_before_functions_keep_their_attributes() {
    let tmp = tempfile::tempdir().unwrap();
    let src = fixture().join("src");
    assert_eq!(build_and_run(&src, &tmp.path().join("original")), "5 6 7 8\n");
    let aspect = tmp.path().join("before.lara");
    std::fs::write(
        &aspect,
        "aspectdef Before\n select file.function end\n apply\n  $function.insert before 'extern int weft_seen_[[$function.name]];';\n end\nend\n",
    )
    .unwrap();
    let out = tmp.path().join("woven");
    let weave = weft_support::command()
        .args(["weave", "--aspect"])
        .arg(&aspect)
        .arg("--output")
        .arg(&out)
        .arg(&src)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&weave.stderr);
    assert!(weave.status.success(), "{stderr}");
    let woven = out.join("src");
    let text = std::fs::read_to_string(woven.join("prog.c")).unwrap();
    for f in ["init_a", "init_b", "init_c", "init_d", "main"] {
        assert!(
            text.contains(&format!("extern int weft_seen_{f};")),
            "{f}:\n{text}"
        );
    }
    assert_eq!(build_and_run(&woven, &woven.join("prog")), "5 6 7 8\n", "{text}");
}
