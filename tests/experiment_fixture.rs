//! The tiny study's HAND strategy instruments its program with the range
//! runtime exactly as the weaver would (`TableSpec` prelude, update
//! statement, epilogue). Its patch is generated here and committed, so the
//! fixture builds with a plain `patch -p1`; set `WEFT_BLESS=1` to rewrite it
//! after a runtime change.

mod setup_support;

use std::path::Path;

use weft::ranges::{Kind, TableSpec, ValueType};

/// The line of calc.c the update statement replaces.
const MARKER: &str = "        /* the HAND strategy records acc here */\n";

fn instrumented(source: &str) -> String {
    let mut table = TableSpec::new("calc.c");
    let acc = table.entry(Kind::Write, "main", "acc", ValueType::I64);
    let body = source.replacen(MARKER, &format!("        {}\n", table.update_stmt(acc, "acc")), 1);
    format!("{}{body}{}", table.prelude(), table.epilogue())
}

#[test]
fn hand_patch_is_the_runtime_tables_text() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/experiment/tiny");
    let source = std::fs::read_to_string(dir.join("src/calc.c")).unwrap();
    assert!(source.contains(MARKER), "calc.c lost its marker line");
    let woven = instrumented(&source);
    let patch = similar::TextDiff::from_lines(&source, &woven)
        .unified_diff()
        .context_radius(3)
        .header("a/calc.c", "b/calc.c")
        .to_string();
    let path = dir.join("monitor.patch");
    if let Some(diff) = setup_support::golden_mismatch(&path, &patch) {
        panic!("{diff}");
    }
}
