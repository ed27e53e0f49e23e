//! `weft multiversion` as a user runs it: the tree copied with the changed
//! files rewritten, the manifest, exit statuses, and nothing written (or
//! lost) on failure.

use std::path::Path;
use std::process::{Command, Output};

mod weft_support;
use weft_support::{exited, weft};

/// `weft multiversion -o OUT TREE PATCHES…`, run to its end.
fn multiversion(out: &Path, tree: &Path, patches: &[String]) -> Output {
    let paths = [out, tree].map(|p| p.to_str().unwrap().to_string());
    weft(
        ["multiversion", "-o"]
            .into_iter()
            .chain(paths.iter().chain(patches).map(String::as_str)),
    )
}

/// Builds the meta program in `out` with its own Makefile and runs it
/// with `WEFT_REV` set to each revision: it must print what is paired
/// with that revision.
fn assert_builds_and_prints(out: &Path, revisions: &[(&str, &str)]) {
    let make = Command::new("make").arg("-s").current_dir(out).output().unwrap();
    assert!(make.status.success(), "{}", String::from_utf8_lossy(&make.stderr));
    for (rev, want) in revisions {
        let run = Command::new(out.join("prog"))
            .env("WEFT_REV", rev)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&run.stdout), *want, "WEFT_REV={rev}");
    }
}

const PROG: &str = "#include <stdio.h>\n\nint twice(int x)\n{\n    return x + x;\n}\n\nint main(void)\n{\n    printf(\"%d\\n\", twice(21));\n    return 0;\n}\n";

/// A tree with `prog.c`, a Makefile and a README, and a diff per revision text.
fn setup(dir: &Path, revisions: &[&str]) -> Vec<String> {
    setup_program(dir, PROG, revisions)
}

/// [`setup`] with `original` as `prog.c`.
fn setup_program(dir: &Path, original: &str, revisions: &[&str]) -> Vec<String> {
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("prog.c"), original).unwrap();
    std::fs::write(tree.join("Makefile"), "prog: prog.c\n\tcc -o prog prog.c\n").unwrap();
    std::fs::write(tree.join("README"), "docs\n").unwrap();
    revisions
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let diff = similar::TextDiff::from_lines(original, *text)
                .unified_diff()
                .header("a/prog.c", "b/prog.c")
                .to_string();
            let p = dir.join(format!("fix{}.diff", i + 1));
            std::fs::write(&p, diff).unwrap();
            p.display().to_string()
        })
        .collect()
}

#[test]
fn writes_the_tree_the_manifest_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let patches = setup(
        dir.path(),
        &[&PROG.replace("x + x", "2 * x"), &PROG.replace("x + x", "x * x")],
    );
    let out = dir.path().join("meta");
    let tree = dir.path().join("tree");
    let (stdout, _) = exited(&multiversion(&out, &tree, &patches), 0);
    assert!(stdout.contains("meta program of 2 revisions"), "{stdout}");
    assert!(
        stdout.contains("site 0  prog.c:5-5  statements in twice  revisions 1 2"),
        "{stdout}"
    );
    // Unchanged files are copied, the changed one rewritten.
    assert_eq!(std::fs::read_to_string(out.join("README")).unwrap(), "docs\n");
    let meta = std::fs::read_to_string(out.join("prog.c")).unwrap();
    assert!(meta.contains("if (weft_meta_rev(0) == 1)"), "{meta}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("weft-meta.json")).unwrap()).unwrap();
    assert_eq!(manifest["revisions"].as_array().unwrap().len(), 2);
    assert_eq!(manifest["sites"][0]["level"], "statements");
    // The tree builds with its own Makefile, and WEFT_REV picks.
    assert_builds_and_prints(&out, &[("0", "42\n"), ("1", "42\n"), ("2", "441\n")]);
    // Running again replaces weft's own output.
    exited(&multiversion(&out, &tree, &patches), 0);
}

#[test]
fn a_diff_that_does_not_apply_exits_1_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut patches = setup(dir.path(), &[&PROG.replace("x + x", "2 * x")]);
    let stale = dir.path().join("stale.diff");
    std::fs::write(
        &stale,
        "--- a/prog.c\n+++ b/prog.c\n@@ -4,3 +4,3 @@\n {\n-    return x * 3;\n+    return x * 4;\n }\n",
    )
    .unwrap();
    patches.push(stale.display().to_string());
    let out = dir.path().join("meta");
    let tree = dir.path().join("tree");
    let (_, stderr) = exited(&multiversion(&out, &tree, &patches), 1);
    assert!(
        stderr.contains("revision 2") && stderr.contains("Hunk #1 FAILED"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn an_output_that_is_not_weft_s_or_holds_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let patches = setup(dir.path(), &[&PROG.replace("x + x", "2 * x")]);
    let tree = dir.path().join("tree");
    // The tree itself, and a directory holding a diff.
    for out in [tree.clone(), dir.path().to_path_buf()] {
        let (_, stderr) = exited(&multiversion(&out, &tree, &patches), 2);
        assert!(stderr.contains("holds input"), "{stderr}");
    }
    assert_eq!(std::fs::read_to_string(tree.join("prog.c")).unwrap(), PROG);
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep").unwrap();
    exited(&multiversion(&mine, &tree, &patches), 2);
    assert_eq!(std::fs::read_to_string(mine.join("notes.txt")).unwrap(), "keep");
    let (_, stderr) = exited(
        &multiversion(Path::new("x"), Path::new("no-such-tree"), &patches),
        2,
    );
    assert!(stderr.contains("no-such-tree: not a directory"));
}

/// A function whose name a macro call makes (`PREFIX(twice)`, the macro
/// defined in the file or in a header it includes): a change inside its
/// body switches statements like any other, and each revision runs as
/// built alone; a change that needs a copy of the function per revision
/// is refused (renaming the name would rename the macro), and nothing is
/// written.
#[test]
fn a_macro_named_function_switches_statements_and_is_never_copied() {
    const MACRO: &str = "#define PREFIX(name) my_##name\n";
    for in_header in [false, true] {
        let head = if in_header {
            "#include \"prefix.h\"\n"
        } else {
            MACRO
        };
        let original = format!(
            "#include <stdio.h>\n{head}static int PREFIX(twice)(int x)\n{{\n    return x + x;\n}}\nint main(void)\n{{\n    printf(\"%d\\n\", PREFIX(twice)(21));\n    return 0;\n}}\n"
        );
        // The meta program of one revision `text`: its directory (kept
        // alive), where it is written, and weft's output.
        let revision = |text: &str| {
            let dir = tempfile::tempdir().unwrap();
            if in_header {
                std::fs::create_dir_all(dir.path().join("tree")).unwrap();
                std::fs::write(dir.path().join("tree/prefix.h"), MACRO).unwrap();
            }
            let out = dir.path().join("meta");
            let tree = dir.path().join("tree");
            let patches = setup_program(dir.path(), &original, &[text]);
            let run = multiversion(&out, &tree, &patches);
            (dir, out, run)
        };
        let (_dir, out, run) = revision(&original.replace("x + x", "x * x"));
        let (stdout, _) = exited(&run, 0);
        assert!(stdout.contains("statements in PREFIX(twice)"), "{stdout}");
        assert_builds_and_prints(&out, &[("0", "42\n"), ("1", "441\n")]);
        // A new signature needs a copy of the function per revision.
        let (_dir, out, run) = revision(&original.replace("(int x)\n", "(int x, ...)\n"));
        let (_, stderr) = exited(&run, 1);
        assert!(
            stderr.contains("prog.c:") && stderr.contains("PREFIX(twice) is named by a macro call"),
            "{stderr}"
        );
        assert!(!out.exists(), "nothing is written on failure");
    }
}
