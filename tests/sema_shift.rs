//! Semantics shifted through the edits of a pass that keeps declarations
//! (AssignExpansion, UnaryExpansion) must describe the edited files exactly
//! as semantics built from scratch do: every scope, declaration (name,
//! kind, range, line, type, spelling, visibility), tag, struct definition
//! and unparsed region, and the view and text themselves. Checked over
//! gzip's own .c files and the transformation passes' test corpus, with
//! the passes run in their usual order so that the shifted edits are those
//! `weft transform` makes.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod sources_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use weft::c::{FrontEnd, MacroTable, ParsedFile, Sources};
use weft::program::Program;
use weft::sema::{Semantics, ViewShift};
use weft::transform::{keeps_declarations, pass_names, run};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.c` files directly in `dir` but the expected outputs, sorted.
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = sources_support::c_files(dir);
    found.retain(|p| !p.to_string_lossy().ends_with(".expected.c"));
    found
}

/// The passes' test corpus: golden inputs and fixtures, each file a program
/// of its own parsed with its own `#define`s.
fn corpus() -> Vec<PathBuf> {
    let golden = root().join("tests/golden/transform");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&golden)
        .expect("golden directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    dirs.sort();
    dirs.push(root().join("tests/fixtures/transform/run"));
    dirs.push(root().join("tests/fixtures/transform/cli/input"));
    dirs.push(root().join("tests/fixtures/transform/cli/input/lib"));
    let files: Vec<PathBuf> = dirs.iter().flat_map(|d| c_files(d)).collect();
    assert!(files.len() >= 15, "transform corpus missing: {files:?}");
    files
}

/// The first line where `a` and `b` differ, with some context.
fn first_difference(a: &str, b: &str) -> Option<String> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let at = (0..la.len().max(lb.len())).find(|&i| la.get(i) != lb.get(i))?;
    let around =
        |lines: &[&str]| lines[at.saturating_sub(12).min(lines.len())..(at + 3).min(lines.len())].join("\n");
    Some(format!(
        "line {at}:\n--- shifted\n{}\n--- rebuilt\n{}",
        around(&la),
        around(&lb)
    ))
}

/// Runs the passes up to UnaryExpansion over `paths`; after each pass that
/// keeps declarations, shifts semantics built before it through its edits
/// and compares them with semantics built after it. Returns how many file
/// shifts were compared.
fn shifts_match_rebuilds(front: &FrontEnd, paths: &[PathBuf], include_dirs: &[PathBuf]) -> usize {
    let parse = |path: &Path, text: Arc<str>| front.parse(path, text);
    let mut files: Vec<ParsedFile> = paths
        .iter()
        .map(|p| parse(p, Arc::from(std::fs::read_to_string(p).expect("readable source"))))
        .collect();
    let mut compared = 0;
    for &(pass, _) in pass_names().iter().take_while(|(p, _)| *p != "NormalizeReturn") {
        let mut sema = Semantics::build_with(&files, include_dirs, &parse);
        let mut shifted = Vec::new();
        for (i, file) in files.iter_mut().enumerate() {
            let outcome = run(pass, file, &sema, i).expect("known pass");
            if outcome.edits.is_empty() {
                continue;
            }
            let text = Arc::from(weft::edit::splice(&file.text, &outcome.edits));
            let reparsed = front.reparse_edited(file, &outcome.edits, text);
            if keeps_declarations(pass).unwrap() {
                let edits = reparsed.view_edits.unwrap_or_else(|| {
                    panic!("{pass} on {}: not spliced into the view", file.path.display())
                });
                let shift = ViewShift::new(&file.view, &edits);
                assert!(
                    sema.shift(i, &reparsed.file, &shift),
                    "{pass} on {}: shift refused",
                    file.path.display()
                );
                shifted.push(i);
            }
            *file = reparsed.file;
        }
        if shifted.is_empty() {
            continue;
        }
        let rebuilt = Semantics::build_with(&files, include_dirs, &parse);
        for (i, file) in files.iter().enumerate() {
            let (got, want) = (sema.describe_file(i), rebuilt.describe_file(i));
            if let Some(diff) = first_difference(&got, &want) {
                panic!(
                    "{pass} on {}: shifted semantics differ, {diff}",
                    file.path.display()
                );
            }
        }
        compared += shifted.len();
    }
    compared
}

#[test]
fn gzip_semantics_shifted_through_expression_rewrites_equal_rebuilt_ones() {
    let gzip = setup_support::gzip_dir();
    let paths = c_files(&gzip);
    assert_eq!(paths.len(), 12, "gzip's top-level .c files");
    let front = Sources::collect(&paths, false)
        .expect("gzip sources")
        .front_end(None)
        .expect("macro table");
    let compared = shifts_match_rebuilds(&front, &paths, &[gzip]);
    // Every file but a couple has a compound assignment or an increment.
    assert!(compared >= 15, "only {compared} shifts compared");
}

#[test]
fn corpus_semantics_shifted_through_expression_rewrites_equal_rebuilt_ones() {
    let mut compared = 0;
    for path in corpus() {
        let text = std::fs::read_to_string(&path).expect("readable source");
        let front = FrontEnd::new(MacroTable::learn([(path.as_path(), text.as_str())]));
        let dir = path.parent().expect("a directory").to_path_buf();
        compared += shifts_match_rebuilds(&front, std::slice::from_ref(&path), &[dir]);
    }
    assert!(compared >= 8, "only {compared} shifts compared");
}

/// Rewrites whose left-hand side spans lines add lines: what follows them
/// moves down.
#[test]
fn semantics_shifted_through_rewrites_that_add_lines_equal_rebuilt_ones() {
    let source = "struct pair { int a, b; };\nint g;\n\
        int f(int *a, int i, int n)\n{\n    a[i\n      + 1] += n;\n    int after = n;\n\
        for (int k = 0; k < n; k++)\n        g -= a[k\n               ];\n\
        {\n        struct pair p = { 1, 2 };\n        p.a *= 2; }\n\
        a[n\n      ]++;\n    enum { ONE = 1 } e = ONE;\n    return after + e;\n}\nint later;\n";
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("lines.c");
    std::fs::write(&path, source).expect("written");
    let front = FrontEnd::new(MacroTable::learn([(path.as_path(), source)]));
    let compared = shifts_match_rebuilds(&front, std::slice::from_ref(&path), &[dir.path().to_path_buf()]);
    assert_eq!(
        compared, 2,
        "AssignExpansion and UnaryExpansion each shift the file"
    );
}

/// A block inside a rewritten expression (a GNU statement expression) is
/// copied into the new text: its declarations do not just move, so the
/// shift is refused and the file must be walked again.
#[test]
fn a_declaration_inside_rewritten_text_refuses_the_shift() {
    let source = "int f(int x)\n{\n    x += ({ int t = 2; t; });\n    return x;\n}\n";
    let path = PathBuf::from("inside.c");
    let front = FrontEnd::new(MacroTable::default());
    let file = front.parse(&path, Arc::from(source));
    let parse = |path: &Path, text: Arc<str>| front.parse(path, text);
    let mut sema = Semantics::build_with(std::slice::from_ref(&file), &[], &parse);
    let outcome = run("AssignExpansion", &file, &sema, 0).expect("known pass");
    assert_eq!(outcome.edits.len(), 1, "the assignment is rewritten");
    let text = Arc::from(weft::edit::splice(&file.text, &outcome.edits));
    let reparsed = front.reparse_edited(&file, &outcome.edits, text);
    let edits = reparsed.view_edits.expect("spliced into the view");
    let before = sema.describe_file(0);
    assert!(!sema.shift(0, &reparsed.file, &ViewShift::new(&file.view, &edits)));
    assert_eq!(sema.describe_file(0), before, "a refused shift changes nothing");
}

/// Through a [`Program`] (as `weft transform` runs the passes): the
/// semantics it keeps after AssignExpansion and UnaryExpansion are those of
/// the edited files.
#[test]
fn a_program_keeps_semantics_equal_to_rebuilt_ones_through_expression_passes() {
    let gzip = setup_support::gzip_dir();
    let paths = c_files(&gzip);
    let front = Sources::collect(&paths, false)
        .expect("gzip sources")
        .front_end(None)
        .expect("macro table");
    let sources = paths
        .iter()
        .map(|p| (p.clone(), std::fs::read_to_string(p).unwrap()));
    let mut program = Program::new(front.clone(), sources);
    let all: Vec<usize> = (0..paths.len()).collect();
    for pass in ["AssignExpansion", "UnaryExpansion"] {
        program.run_pass(pass, &all, 0).expect("pass runs");
        program.commit();
        let parse = |path: &Path, text: Arc<str>| front.parse(path, text);
        let rebuilt = Semantics::build_with(program.files(), std::slice::from_ref(&gzip), &parse);
        let kept = program.semantics();
        for i in all.iter().copied() {
            let (got, want) = (kept.describe_file(i), rebuilt.describe_file(i));
            if let Some(diff) = first_difference(&got, &want) {
                panic!("{pass} on {}: kept semantics differ, {diff}", paths[i].display());
            }
        }
    }
}
