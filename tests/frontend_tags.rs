//! A name after `struct`, `union` or `enum` is a tag and is never blanked
//! (tests/fixtures/tags): tags renamed by macros in a header (to another
//! name, to a reserved word), a macro-shaped tag no macro defines, a tag
//! a macro names, a comment between `struct` and the tag, each next to a
//! macro no file defines (`static HIDDEN struct internal_state *f(…)`), so
//! that the error heuristics look at the tag. Every function is
//! understood, every tag is read as written, and the program woven with
//! ASCV3 builds with warnings as errors and prints what the original does.

mod program_support;
mod weft_support;

mod frontend_support;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tags")
}

#[test]
fn tags_are_read_as_written() {
    let (front_end, path, text) = frontend_support::front_end_and_file(&fixture(), "prog.c");
    let file = front_end.parse(&path, text.clone());
    let tree = file.whole_tree();
    let root = tree.root_node();
    let mut cursor = root.walk();
    let functions: Vec<bool> = root
        .children(&mut cursor)
        .filter(|n| n.kind() == "function_definition")
        .map(|n| file.is_understood(n))
        .collect();
    assert_eq!(functions, [true; 5], "{:?}", file.problems);
    // Every tag of the original is in the view, where it was: the repairs
    // here keep lengths, so offsets agree.
    assert_eq!(file.view.len(), text.len());
    let mut tags = 0;
    for keyword in ["struct", "union", "enum"] {
        for (at, _) in text.match_indices(keyword) {
            let rest = &text[at + keyword.len()..];
            let rest = rest.trim_start();
            let rest = rest.strip_prefix("/* renamed */").unwrap_or(rest).trim_start();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                continue;
            }
            let name_at = text.len() - rest.len();
            assert_eq!(
                &file.view[name_at..name_at + name.len()],
                name,
                "{keyword} {name} at {name_at}"
            );
            tags += 1;
        }
    }
    assert!(tags >= 12, "{tags} tags checked");
}

/// Builds `dir/prog.c` into `exe` with warnings as errors and runs it,
/// its records going to `weft_out`: its stdout.
fn build_and_run(dir: &Path, exe: &Path, weft_out: &Path) -> String {
    program_support::build_strict(&dir.join("prog.c"), exe, &["-std=gnu99", "-DHIDDEN="]);
    program_support::run_ok(exe, &[], Some(weft_out)).0
}

#[test]
fn code_woven_around_tags_builds_and_runs_like_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    let records = tmp.path().join("records");
    let expected = build_and_run(&fixture(), &tmp.path().join("original"), &records);
    assert_eq!(expected, "2 7 3 40\n");
    let out = tmp.path().join("woven");
    weft_support::weave("ascv3.lara", &[], &out, &fixture());
    let woven = out.join("tags");
    assert_eq!(build_and_run(&woven, &woven.join("prog"), &records), expected);
    // The functions returning tagged types were monitored.
    let shown = weft_support::ranges_shown(&[], &records);
    assert!(shown.contains("color_of"), "{shown}");
}
