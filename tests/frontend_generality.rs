//! Macro shapes of real projects (tests/fixtures/generality/sys.h: a
//! keyword type behind `#define bool _Bool`, a function-like attribute
//! macro, a block-taking statement macro reached through helpers, a
//! storage class behind a macro, case labels written by macros, a comment
//! in a continued `#define`, a function renamed to a reserved word, string
//! literals behind identity and literal macros, an operator as a macro
//! argument, a directive between a declarator and its body): every function is understood, and code woven
//! around them compiles with warnings as errors and runs like the original.

mod program_support;
mod weft_support;

mod frontend_support;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generality")
}

#[test]
fn every_function_is_understood() {
    let (front_end, path, text) = frontend_support::front_end_and_file(&fixture(), "prog.c");
    let file = front_end.parse(&path, text);
    let mut functions = Vec::new();
    let tree = file.whole_tree();
    let mut cursor = tree.root_node().walk();
    for node in tree.root_node().children(&mut cursor) {
        if node.kind() == "function_definition" {
            functions.push(file.is_understood(node));
        }
    }
    assert_eq!(functions, [true; 5], "is_even, parse, locked_add, report, main");
}

/// Weaves the aspect file over the fixture into `out`; weft must print no
/// warning (no refused insert).
fn weave(aspect_file: &Path, out: &Path) {
    let run = weft_support::command()
        .args(["weave", "--aspect"])
        .arg(aspect_file)
        .arg("--output")
        .arg(out)
        .arg(fixture())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// Builds `dir/prog.c` into `exe` with warnings as errors and runs it on
/// its three inputs, its records going to `weft_out`: its stdout.
fn build_and_run(dir: &Path, exe: &Path, extra_flags: &[&str], weft_out: &Path) -> String {
    let flags: Vec<&str> = ["-std=gnu99"]
        .into_iter()
        .chain(extra_flags.iter().copied())
        .collect();
    program_support::build_strict(&dir.join("prog.c"), exe, &flags);
    program_support::run_ok(exe, &["12 3", "7", " 4 0"], Some(weft_out)).0
}

#[test]
fn code_woven_around_macro_shapes_compiles_and_runs_like_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    let records = tmp.path().join("records");
    let expected = build_and_run(&fixture(), &tmp.path().join("original"), &[], &records);
    assert!(expected.contains("total 173"), "{expected}");
    let cases: [(&str, &str, &[&str]); 3] = [
        // An insert before each function's first statement, after leading
        // declarations, one of them `bool even` and one `REGISTER int`.
        (
            "entry",
            "aspectdef Entry\n select function.first_stmt end\n apply\n  $first_stmt.insert before %{fprintf(stderr, \"enter [[$function.name]]\\n\");}%;\n end\nend\n",
            &[],
        ),
        // A declaration before each first declaration: before `REGISTER`,
        // never between it and `int`.
        (
            "decl",
            "aspectdef FirstDecl\n select function.first_decl end\n apply\n  $first_decl.insert before 'int weft_seen_[[$function.name]] = 1;';\n end\nend\n",
            &["-Wno-unused-variable"],
        ),
        // The range strategy, NormalizeReturn included.
        ("ascv3", "", &[]),
    ];
    for (name, aspect, flags) in cases {
        let out = tmp.path().join(name);
        let aspect_file = if aspect.is_empty() {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/ascv3.lara")
        } else {
            let file = out.with_extension("lara");
            std::fs::write(&file, aspect).unwrap();
            file
        };
        weave(&aspect_file, &out);
        let woven = out.join("generality");
        assert_eq!(
            build_and_run(&woven, &woven.join("prog"), flags, &records),
            expected,
            "{name}"
        );
        let text = std::fs::read_to_string(woven.join("prog.c")).unwrap();
        assert!(
            !text.contains("REGISTER int weft") && !text.contains("bool weft"),
            "{name}:\n{text}"
        );
    }
    // ASCV3 reached the parameters of the function with the block macro.
    let shown = weft_support::ranges_shown(&["--json"], &records);
    assert!(shown.contains("locked_add"), "{shown}");
}
