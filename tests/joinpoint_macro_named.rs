//! Functions whose name a macro call makes (tests/fixtures/macro_named:
//! `static int PREFIX(scanToken)(…)` and `static const char *\nPREFIX(skip)
//! /* comment */ (…)` in a file its driver includes once per `PREFIX`,
//! which only the driver defines). The join point's name is the call as
//! written, its parameters the outer list; ASCV3 (NormalizeReturn's
//! temporary typed from the specifiers and pointer layers, never declared
//! as a function) and the invariant tracer weave code that builds with
//! warnings as errors and prints what the original prints.

mod program_support;
mod weft_support;

use std::path::{Path, PathBuf};

use weft_support::weft_exits;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/macro_named")
}

#[test]
fn a_macro_made_name_is_the_call_as_written() {
    let (listed, _) = weft_exits(
        0,
        ["select", "function", fixture().join("impl.c").to_str().unwrap()],
    );
    assert!(
        listed.contains("name=\"PREFIX(scanToken)\" num_params=2"),
        "{listed}"
    );
    assert!(listed.contains("name=\"PREFIX(skip)\" num_params=1"), "{listed}");
    assert!(!listed.contains("name=\"PREFIX\""), "{listed}");
}

/// Builds `dir/driver.c` into `exe` with warnings as errors and runs it,
/// its records going to `weft_out`: its stdout.
fn build_and_run(dir: &Path, exe: &Path, weft_out: &Path) -> String {
    program_support::build_strict(&dir.join("driver.c"), exe, &["-std=gnu99"]);
    program_support::run_ok(exe, &[], Some(weft_out)).0
}

#[test]
fn code_woven_into_macro_named_functions_builds_and_runs_like_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    let records = tmp.path().join("records");
    let expected = build_and_run(&fixture(), &tmp.path().join("original"), &records);
    assert_eq!(expected, "8 1\n[cd] []\n");
    for name in ["ascv3", "invariants"] {
        let out = tmp.path().join(name);
        weft_support::weave(&format!("{name}.lara"), &[], &out, &fixture());
        let woven = out.join("macro_named");
        let text = std::fs::read_to_string(woven.join("impl.c")).unwrap();
        assert!(
            !text.contains("weft_ret("),
            "{name}: a temporary declared as a function:\n{text}"
        );
        if name == "ascv3" {
            assert!(text.contains("{ int weft_ret;"), "{text}");
            assert!(text.contains("{ const char * weft_ret;"), "{text}");
        }
        assert_eq!(
            build_and_run(&woven, &woven.join("prog"), &records),
            expected,
            "{name}"
        );
    }
    let (shown, _) = weft_exits(0, ["ranges", "show", records.to_str().unwrap()]);
    assert!(shown.contains("PREFIX(scanToken)"), "{shown}");
}
