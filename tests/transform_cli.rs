//! `weft transform` on a small tree: golden output, behaviour preserved
//! (compiled and run before and after), skipped places on stderr, usage
//! errors. `WEFT_BLESS=1` rewrites the expected files.

mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use weft_support::weft_exits;

const ALL: &str =
    "SingleDeclarator,AssignmentExpansion,structassigndecomposition,UnaryExpansion,NormalizeReturn";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transform/cli")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Compiles the tree's two C files and runs the program.
fn build_and_run(tree: &Path, work: &Path) -> String {
    let exe = work.join("prog");
    let cc = Command::new("gcc")
        .args(["-Wall", "-Werror", "-O1", "-I"])
        .arg(tree.join("include"))
        .arg("-o")
        .arg(&exe)
        .arg(tree.join("main.c"))
        .arg(tree.join("lib/acc.c"))
        .output()
        .expect("gcc runs");
    assert!(cc.status.success(), "{}", text(&cc.stderr));
    let run = Command::new(&exe).output().expect("program runs");
    assert!(run.status.success());
    text(&run.stdout)
}

#[test]
fn all_passes_write_the_expected_tree_that_behaves_the_same() {
    let input = fixture().join("input");
    let include = input.join("include");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let args = [
        "transform",
        "--pass",
        ALL,
        "-I",
        include.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ];
    weft_exits(0, args);
    let result = out.join("input");
    for file in ["main.c", "lib/acc.c"] {
        let got = std::fs::read_to_string(result.join(file)).unwrap();
        let expected_path = fixture().join("expected").join(file);
        if let Some(diff) = setup_support::golden_mismatch(&expected_path, &got) {
            panic!("{diff}");
        }
    }
    // Everything else is mirrored unchanged.
    for file in ["README", "lib/acc.h", "include/counter.h"] {
        assert_eq!(
            std::fs::read(result.join(file)).unwrap(),
            std::fs::read(input.join(file)).unwrap(),
            "{file}"
        );
    }
    let before = build_and_run(&input, work.path());
    let after = build_and_run(&result, work.path());
    assert_eq!(before, after);
}

#[test]
fn without_the_include_dir_unknown_types_are_skipped_and_reported() {
    let input = fixture().join("input");
    let (stdout, stderr) = weft_exits(
        0,
        [
            "transform",
            "--pass",
            "AssignExpansion",
            "--diff",
            input.to_str().unwrap(),
        ],
    );
    assert!(
        stderr.contains("AssignExpansion: ") && stderr.contains("main.c:10:9: type of `gained` is unknown"),
        "{stderr}"
    );
    // `gained += …` was left alone; nothing else in main.c is compound.
    assert!(!stdout.contains("gained = gained"));
}

#[test]
fn an_unknown_pass_is_a_usage_error_listing_the_passes() {
    let input = fixture().join("input");
    let (_, stderr) = weft_exits(
        2,
        ["transform", "--pass", "Unroll", "--diff", input.to_str().unwrap()],
    );
    for (name, _) in weft::transform::pass_names() {
        assert!(stderr.contains(name), "{stderr}");
    }
}

#[test]
fn help_lists_passes_and_aliases() {
    let (help, _) = weft_exits(0, ["transform", "--help"]);
    assert!(
        help.contains("AssignmentExpansion") && help.contains("NormalizeReturn"),
        "{help}"
    );
}

#[test]
fn pass_all_runs_the_five_passes_in_order() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/range-monitoring");
    let run =
        |passes: &str| weft_support::weft(["transform", "--pass", passes, "--diff", dir.to_str().unwrap()]);
    let all = run("all");
    weft_support::exited(&all, 0);
    let spelled = run(
        "SingleDeclarator,AssignmentExpansion,StructAssignmentDecomposition,UnaryExpansion,NormalizeReturn",
    );
    assert_eq!(all.stdout, spelled.stdout);
    assert!(!all.stdout.is_empty());
}
