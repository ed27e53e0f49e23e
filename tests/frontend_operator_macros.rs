//! Operator macros after an operand (tests/fixtures/operator_macros):
//! `64 KB` with `#define KB *(1 << 10)` defined in a header, a comment in
//! the definition or between the number and the macro, a continued
//! definition, a function-like one (`x TIMES(3)`), uses after a number, a
//! name, `)` and `]`, at file scope and in functions; a name that is such
//! a macro in one configuration and a variable in the other, after `if
//! (…)`, is left as written. Every function is
//! understood, the view reads each use as its expansion (so `64 KB` is
//! 65536, never 64), nothing inside an expansion is editable, and code
//! woven around them compiles with warnings as errors and runs like the
//! original.

mod program_support;
mod weft_support;

mod frontend_support;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/operator_macros")
}

/// Every node of `node`'s subtree, in order.
fn nodes<'t>(node: tree_sitter::Node<'t>, out: &mut Vec<tree_sitter::Node<'t>>) {
    out.push(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        nodes(child, out);
    }
}

#[test]
fn uses_are_read_as_their_expansion_and_never_edited_inside() {
    let (front_end, path, text) = frontend_support::front_end_and_file(&fixture(), "prog.c");
    let file = front_end.parse(&path, text);
    let mut all = Vec::new();
    let tree = file.whole_tree();
    nodes(tree.root_node(), &mut all);
    let functions: Vec<bool> = all
        .iter()
        .filter(|n| n.kind() == "function_definition")
        .map(|n| file.is_understood(*n))
        .collect();
    assert_eq!(functions, [true; 5], "scaled, summed, divided, flagged, main");
    // `64 KB` is the product 64 * 1024 as a whole, mapped back to its
    // original text; the expansion's own parts are not editable.
    let product = all
        .iter()
        .find(|n| n.kind() == "binary_expression" && file.node_text(**n).starts_with("64 "))
        .expect("64 KB read as a product");
    assert_eq!(file.node_text(*product), "64 *(1 << 10)");
    assert!(file.is_understood(*product));
    let original = file
        .outer_range(product.byte_range())
        .expect("maps back by its ends");
    assert_eq!(&file.text[original], "64 KB");
    for n in &all {
        let view = file.node_text(*n);
        if view.starts_with("(1 << 10)") || view.starts_with("(1U<<20)") || view == "(3)" {
            assert!(!file.is_understood(*n), "{view} is inside an expansion");
        }
    }
    // `x / 2 KB` is (x / 2) * 1024, as the preprocessor reads it.
    let quotient = all
        .iter()
        .find(|n| n.kind() == "binary_expression" && file.node_text(**n).starts_with("x / 2 *"))
        .expect("x / 2 KB");
    let left = quotient.child_by_field_name("left").unwrap();
    assert_eq!(file.node_text(left), "x / 2");
}

/// Builds `dir/prog.c` into `exe` with warnings as errors and runs it,
/// its records going to `weft_out`: its stdout.
fn build_and_run(dir: &Path, exe: &Path, weft_out: &Path) -> String {
    program_support::build_strict(&dir.join("prog.c"), exe, &["-std=gnu99"]);
    program_support::run_ok(exe, &[], Some(weft_out)).0
}

#[test]
fn code_woven_around_operator_macros_compiles_and_runs_like_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    let records = tmp.path().join("records");
    let expected = build_and_run(&fixture(), &tmp.path().join("original"), &records);
    assert!(expected.contains("table 65536 2048 1048576"), "{expected}");
    assert!(expected.contains("divided 51201024"), "{expected}");
    assert!(expected.contains("flagged -1"), "{expected}");
    let entry = tmp.path().join("entry.lara");
    std::fs::write(
        &entry,
        "aspectdef Entry\n select function.first_stmt end\n apply\n  $first_stmt.insert before %{fprintf(stderr, \"enter [[$function.name]]\\n\");}%;\n end\nend\n",
    )
    .unwrap();
    let ascv3 = Path::new(env!("CARGO_MANIFEST_DIR")).join("aspects/ascv3.lara");
    for (name, aspect) in [("entry", entry.as_path()), ("ascv3", ascv3.as_path())] {
        let out = tmp.path().join(name);
        let run = weft_support::command()
            .args(["weave", "--aspect"])
            .arg(aspect)
            .arg("--output")
            .arg(&out)
            .arg(fixture())
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let woven = out.join("operator_macros");
        let text = std::fs::read_to_string(woven.join("prog.c")).unwrap();
        assert!(text.contains("64 KB, 2 /* two */ KB, 1 MB"), "{text}");
        assert_ne!(text, std::fs::read_to_string(fixture().join("prog.c")).unwrap());
        assert_eq!(
            build_and_run(&woven, &woven.join("prog"), &records),
            expected,
            "{name}"
        );
    }
    // ASCV3 monitored the variables of the functions using the macros.
    let shown = weft_support::ranges_shown(&["--json"], &records);
    assert!(shown.contains("divided") && shown.contains("summed"), "{shown}");
}
