//! Golden weaving tests: every directory of tests/golden with an
//! `aspect.lara` (others belong to the transformation tests) holds `input.c`,
//! `aspect.lara` and `expected.c`; weaving the aspect into the input must give
//! exactly the expected text. Set WEFT_BLESS=1 to write `expected.c` from the
//! current output (then review the diff before committing).

mod aspect_support;
mod setup_support;

use std::fs;
use std::path::Path;

use weft::c::{FrontEnd, MacroTable};
use weft::program::Program;

/// Weaves one case and returns the woven text.
fn weave(case: &Path) -> Result<String, String> {
    let input = fs::read_to_string(case.join("input.c")).map_err(|e| e.to_string())?;
    let path = Path::new("input.c");
    let front = FrontEnd::new(MacroTable::learn([(path, input.as_str())]));
    let mut program = Program::new(front, [(path.to_path_buf(), input)]);
    let module =
        weft::aspect::load(&case.join("aspect.lara"), &weft::Limits::default()).map_err(|d| d.to_string())?;
    aspect_support::run_aspect(&module, &[], &mut program).map_err(|e| e.to_string())?;
    program.commit();
    Ok(program.files()[0].text.to_string())
}

#[test]
fn golden_cases_weave_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut cases: Vec<_> = fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    let mut failures = Vec::new();
    cases.retain(|c| c.join("aspect.lara").is_file());
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let woven = match weave(case) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if let Some(diff) = setup_support::golden_mismatch(&case.join("expected.c"), &woven) {
            failures.push(format!("{name}: {diff}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cases.len() >= 6);
}
