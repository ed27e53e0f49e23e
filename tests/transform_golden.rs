//! Golden tests of the transformation passes: for every
//! `tests/golden/transform/<Pass>/<case>.c`, running the pass must give
//! `<case>.expected.c` exactly, and running it again must change nothing.
//! Set `WEFT_BLESS=1` to write missing or changed expectations (review
//! the diff before committing).

mod setup_support;

use std::path::{Path, PathBuf};

use weft::c::{FrontEnd, MacroTable};
use weft::program::transform_text;

fn cases() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/transform");
    let mut found = Vec::new();
    for pass in std::fs::read_dir(&root).expect("golden directory") {
        let pass = pass.expect("directory entry").path();
        let name = pass.file_name().unwrap().to_string_lossy().to_string();
        for file in std::fs::read_dir(&pass).expect("pass directory") {
            let path = file.expect("directory entry").path();
            let file_name = path.file_name().unwrap().to_string_lossy().to_string();
            if file_name.ends_with(".c") && !file_name.ends_with(".expected.c") {
                found.push((name.clone(), path));
            }
        }
    }
    found.sort();
    found
}

fn once(pass: &str, path: &Path, text: &str) -> String {
    // The case's own #defines, as the front end learns a project's.
    let (texts, _) = transform_text(
        &FrontEnd::new(MacroTable::learn([(path, text)])),
        &[(path.to_path_buf(), text.to_string())],
        &[pass],
        &[],
    )
    .expect("known pass");
    texts.into_iter().next().unwrap()
}

#[test]
fn every_pass_matches_its_golden_output_and_is_idempotent() {
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 5, "golden cases missing");
    for (pass, path) in all {
        let input = std::fs::read_to_string(&path).unwrap();
        let output = once(&pass, &path, &input);
        if let Some(diff) = setup_support::golden_mismatch(&path.with_extension("expected.c"), &output) {
            failures.push(diff);
        }
        let again = once(&pass, &path, &output);
        if again != output {
            failures.push(format!(
                "{}: {pass} is not idempotent\n{}",
                path.display(),
                similar::TextDiff::from_lines(&output, &again).unified_diff()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
