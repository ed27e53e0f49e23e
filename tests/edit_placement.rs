//! Placement rules: every insertion yields legal C or is refused.

use std::sync::Arc;

use weft::c::ParsedFile;
use weft::edit::EditSet;
use weft::edit::placement::{self, is_declarations};
use weft::engine::InsertAt;

/// The smallest node of kind `kind` around the start of the first
/// occurrence of `needle`.
fn find<'t>(
    tree: &'t tree_sitter::Tree,
    file: &ParsedFile,
    needle: &str,
    kind: &str,
) -> tree_sitter::Node<'t> {
    let start = file.view.find(needle).expect("needle in source");
    let mut node = tree
        .root_node()
        .descendant_for_byte_range(start, start)
        .expect("node");
    while node.kind() != kind {
        node = node
            .parent()
            .unwrap_or_else(|| panic!("no {kind} around {needle}"));
    }
    node
}

/// Applies the insertions in order and returns the woven text, or the first
/// refusal's message.
fn weave(src: &str, actions: &[(&str, &str, InsertAt, &str)]) -> Result<String, String> {
    let file = ParsedFile::parse_plain("t.c", src);
    let mut set = EditSet::new("t.c", Arc::clone(&file.text));
    for (needle, kind, at, code) in actions {
        let tree = file.whole_tree();
        let node = find(&tree, &file, needle, kind);
        let plan = placement::plan(&file, node, *at, code).map_err(|r| r.message)?;
        set.push(plan.ops, plan.origin).map_err(|e| e.to_string())?;
    }
    let out = set.apply();
    let reparsed = ParsedFile::parse_plain("t.c", out.as_str());
    assert!(
        !reparsed.whole_tree().root_node().has_error(),
        "woven code does not parse:\n{out}"
    );
    Ok(out)
}

use InsertAt::{After, Before, Replace};

#[test]
fn statements_get_their_own_lines_with_the_statement_indentation() {
    let src = "void f(void)\n{\n    a();\n    b(); /* note */\n}\n";
    let out = weave(
        src,
        &[
            ("b()", "expression_statement", Before, "x();"),
            ("b()", "expression_statement", After, "y();\nz();"),
        ],
    );
    assert_eq!(
        out.unwrap(),
        "void f(void)\n{\n    a();\n    x();\n    b(); /* note */\n    y();\n    z();\n}\n"
    );
}

#[test]
fn repeated_inserts_keep_issue_order() {
    let src = "void f(void) {\n  a();\n}\n";
    let out = weave(
        src,
        &[
            ("a()", "expression_statement", Before, "b1();"),
            ("a()", "expression_statement", Before, "b2();"),
            ("a()", "expression_statement", After, "a1();"),
            ("a()", "expression_statement", After, "a2();"),
        ],
    );
    assert_eq!(
        out.unwrap(),
        "void f(void) {\n  b1();\n  b2();\n  a();\n  a1();\n  a2();\n}\n"
    );
}

#[test]
fn an_expression_anchors_on_its_statement() {
    let src = "int f(int v) {\n  int r;\n  r = g(v);\n  return r;\n}\n";
    let out = weave(
        src,
        &[
            ("g(v)", "call_expression", Before, "pre(v);"),
            ("r = g", "assignment_expression", After, "post(r);"),
            ("r;\n}", "identifier", Before, "check(r);"),
        ],
    );
    assert_eq!(
        out.unwrap(),
        "int f(int v) {\n  int r;\n  pre(v);\n  r = g(v);\n  post(r);\n  check(r);\n  return r;\n}\n"
    );
}

#[test]
fn a_braceless_body_gets_braces_once_for_all_edits() {
    let src = "void f(int x) {\n  if (x)\n    a();\n  else\n    b();\n}\n";
    let out = weave(
        src,
        &[
            ("a()", "expression_statement", Before, "pre();"),
            ("a()", "expression_statement", After, "post();"),
            ("b()", "call_expression", After, "other();"),
        ],
    );
    assert_eq!(
        out.unwrap(),
        "void f(int x) {\n  if (x) {\n    pre();\n    a();\n    post();\n  }\n  else {\n    b();\n    other();\n  }\n}\n"
    );
}

#[test]
fn a_one_line_body_is_wrapped_too() {
    let src = "void f(int x) {\n  while (x) x--;\n  do g(); while (x);\n}\n";
    let out = weave(
        src,
        &[
            ("x--", "expression_statement", Before, "tick();"),
            ("g()", "expression_statement", After, "tock();"),
        ],
    )
    .unwrap();
    assert!(
        out.contains("  while (x) {\n    tick();\n    x--;\n  }\n"),
        "{out}"
    );
    assert!(
        out.contains("  do {\n    g();\n    tock();\n  } while (x);"),
        "{out}"
    );
}

#[test]
fn inserting_after_the_whole_if_follows_the_closing_brace_of_its_body() {
    let src = "void f(int x) {\n  if (x)\n    a();\n}\n";
    let out = weave(
        src,
        &[
            ("if (x)", "if_statement", After, "after_if();"),
            ("a()", "expression_statement", After, "after_a();"),
        ],
    );
    assert_eq!(
        out.unwrap(),
        "void f(int x) {\n  if (x) {\n    a();\n    after_a();\n  }\n  after_if();\n}\n"
    );
}

#[test]
fn nothing_lands_in_a_for_header_or_loop_condition() {
    let src = "void f(int n) {\n  for (int i = 0; i < n; i++) g(i);\n  while (n--) h();\n}\n";
    let e = weave(src, &[("i < n", "binary_expression", Before, "x();")]).unwrap_err();
    assert!(e.contains("for header"), "{e}");
    let e = weave(src, &[("n--", "update_expression", After, "x();")]).unwrap_err();
    assert!(e.contains("loop condition"), "{e}");
    // The body is fine.
    assert!(weave(src, &[("g(i)", "call_expression", Before, "x();")]).is_ok());
}

#[test]
fn leading_declarations_stay_first() {
    let src = "void f(void) {\n  int a = 1;\n  int b;\n  /* c */\n  int c;\n  g(a);\n}\n";
    let e = weave(src, &[("int b", "declaration", Before, "g(0);")]).unwrap_err();
    assert!(e.contains("leading declarations"), "{e}");
    // Declarations may go among declarations.
    assert!(weave(src, &[("int b", "declaration", Before, "int z;")]).is_ok());
    // After a declaration followed by more: after the last of them.
    let out = weave(src, &[("int a", "declaration", After, "g(1);")]).unwrap();
    assert_eq!(
        out,
        "void f(void) {\n  int a = 1;\n  int b;\n  /* c */\n  int c;\n  g(1);\n  g(a);\n}\n"
    );
    // Before the first statement: after the declarations.
    let out = weave(src, &[("g(a)", "expression_statement", Before, "g(2);")]).unwrap();
    assert!(out.contains("int c;\n  g(2);\n  g(a);"), "{out}");
}

#[test]
fn code_after_a_jump_is_refused_with_its_location() {
    let src = "int f(int x) {\n  for (;;) {\n    if (x) break;\n    continue;\n  }\n  return x;\n}\n";
    for (needle, kind) in [
        ("break", "break_statement"),
        ("continue", "continue_statement"),
        ("return x", "return_statement"),
        ("x;\n}", "identifier"),
    ] {
        let file = ParsedFile::parse_plain("t.c", src);
        let tree = file.whole_tree();
        let node = find(&tree, &file, needle, kind);
        let refusal = placement::plan(&file, node, After, "g();").unwrap_err();
        assert!(refusal.message.contains("never run"), "{}", refusal.message);
    }
    // Before a return is fine.
    assert!(weave(src, &[("return x", "return_statement", Before, "g(x);")]).is_ok());
}

#[test]
fn file_scope_items_get_file_scope_lines() {
    let src = "#include <stdio.h>\n\n/* doc */\nstatic int\nmain (void)\n{\n  return 0;\n}\n";
    let out = weave(
        src,
        &[
            (
                "static int",
                "function_definition",
                Before,
                "#include \"range.h\"\nRange r[3];",
            ),
            ("static int", "function_definition", After, "void done(void) {}"),
        ],
    );
    assert_eq!(
        out.unwrap(),
        "#include <stdio.h>\n\n/* doc */\n#include \"range.h\"\nRange r[3];\nstatic int\nmain (void)\n{\n  return 0;\n}\nvoid done(void) {}\n"
    );
}

#[test]
fn a_file_without_final_newline_keeps_items_apart() {
    let out = weave("int g;", &[("int g", "declaration", After, "int h;")]).unwrap();
    assert_eq!(out, "int g;\nint h;\n");
}

#[test]
fn replace_replaces_exactly_the_join_point() {
    let src = "int f(int a) { return a * 2; }\n";
    let out = weave(src, &[("a * 2", "binary_expression", Replace, "twice(a)")]);
    assert_eq!(out.unwrap(), "int f(int a) { return twice(a); }\n");
}

#[test]
fn a_statement_sharing_its_line_gets_its_own_line_without_trailing_blanks() {
    let src = "void f(void) {\n    a(); b();\n}\n";
    let out = weave(src, &[("b()", "expression_statement", Before, "x();")]).unwrap();
    assert_eq!(out, "void f(void) {\n    a();\n    x();\n    b();\n}\n");
    // Blanks that are not the end of the indentation stay where they were.
    let src = "void f(void) {\n    a();\tb();\n}\n";
    let out = weave(src, &[("b()", "expression_statement", Before, "x();")]).unwrap();
    assert_eq!(out, "void f(void) {\n    a();\t\n    x();\n    b();\n}\n");
}

#[test]
fn crlf_files_get_crlf_lines() {
    let src = "void f(void) {\r\n  a();\r\n}\r\n";
    let out = weave(src, &[("a()", "expression_statement", After, "b();")]).unwrap();
    assert_eq!(out, "void f(void) {\r\n  a();\r\n  b();\r\n}\r\n");
}

#[test]
fn not_understood_or_odd_places_are_refused() {
    let src = "void f(int p) {\n  switch (p) { case 1: g(); }\n}\n";
    let e = weave(src, &[("p) {", "parameter_declaration", Before, "x();")]).unwrap_err();
    assert!(e.contains("declarator"), "{e}");
    let e = weave(src, &[("{\n  switch", "compound_statement", Before, "x();")]).unwrap_err();
    assert!(e.contains("function body"), "{e}");
    let e = weave(src, &[("{ case", "compound_statement", Before, "x();")]).unwrap_err();
    assert!(e.contains("switch body"), "{e}");
    let bad = "void f(void) {\n  h(1, ]);\n}\n";
    let e = weave(bad, &[("h(", "call_expression", Before, "x();")]).unwrap_err();
    assert!(e.contains("did not understand"), "{e}");
    // Inside a case is fine.
    assert!(weave(src, &[("g()", "call_expression", Before, "x();")]).is_ok());
}

#[test]
fn declarations_are_recognised() {
    assert!(is_declarations("int x = 0;\nRange r[4];"));
    assert!(is_declarations("  static long c;  /* counter */"));
    assert!(!is_declarations("x++;"));
    assert!(!is_declarations("int x; f(x);"));
    assert!(!is_declarations(""));
}

/// Inserts around the whole file (the tree's root) and returns the result.
fn around_file(src: &str, actions: &[(InsertAt, &str)]) -> Result<String, String> {
    let file = ParsedFile::parse_plain("t.c", src);
    let mut set = EditSet::new("t.c", Arc::clone(&file.text));
    let tree = file.whole_tree();
    let root = tree.root_node();
    for (at, code) in actions {
        let plan = placement::plan(&file, root, *at, code).map_err(|r| r.message)?;
        set.push(plan.ops, plan.origin).map_err(|e| e.to_string())?;
    }
    Ok(set.apply())
}

#[test]
fn the_file_takes_code_at_its_very_start_and_end() {
    // The first and last items are inside #if: code around them would be
    // conditional, code around the file is not.
    let src = "/* head */\n#include <stdio.h>\n#if A\nint f(void) { return 1; }\n#endif\n";
    let out = around_file(src, &[(Before, "  int pre;\n  int pre2;"), (After, "int post;")]).unwrap();
    assert_eq!(
        out,
        "int pre;\nint pre2;\n/* head */\n#include <stdio.h>\n#if A\nint f(void) { return 1; }\n#endif\nint post;\n"
    );
}

#[test]
fn a_file_without_final_newline_gets_one_before_code_after_it() {
    let out = around_file("int g; // last", &[(After, "int h;")]).unwrap();
    assert_eq!(out, "int g; // last\nint h;\n");
    let out = around_file("", &[(After, "int z;")]).unwrap();
    assert_eq!(out, "int z;\n");
}

#[test]
fn file_code_encloses_code_around_the_first_and_last_items() {
    let src = "int g;\r\n";
    let out = weave(src, &[("int g", "declaration", Before, "int before_g;")]).unwrap();
    assert_eq!(out, "int before_g;\r\nint g;\r\n");
    let file = ParsedFile::parse_plain("t.c", src);
    let mut set = EditSet::new("t.c", Arc::clone(&file.text));
    let tree = file.whole_tree();
    let root = tree.root_node();
    let g = find(&tree, &file, "int g", "declaration");
    for (node, at, code) in [
        (g, Before, "int before_g;"),
        (root, Before, "int first;"),
        (g, After, "int after_g;"),
        (root, After, "int last;"),
    ] {
        let plan = placement::plan(&file, node, at, code).unwrap();
        set.push(plan.ops, plan.origin).unwrap();
    }
    assert_eq!(
        set.apply(),
        "int first;\r\nint before_g;\r\nint g;\r\nint after_g;\r\nint last;\r\n"
    );
}

#[test]
fn files_with_code_the_parser_did_not_understand_still_take_file_code() {
    let out = around_file(
        "void f(void) {\n  h(1, ]);\n}\n",
        &[(Before, "int a;"), (After, "int z;")],
    )
    .unwrap();
    assert_eq!(out, "int a;\nvoid f(void) {\n  h(1, ]);\n}\nint z;\n");
    let e = around_file("int g;\n", &[(Replace, "int h;")]).unwrap_err();
    assert!(e.contains("whole file"), "{e}");
}

#[test]
fn code_before_a_function_goes_before_its_blanked_storage_class_macro() {
    let src = "#define local static\n\nlocal int f(void)\n{\n  return 1;\n}\n";
    let macros = weft::c::MacroTable::learn([(std::path::Path::new("t.c"), src)]);
    let file = weft::c::FrontEnd::new(macros).parse(std::path::Path::new("t.c"), Arc::from(src));
    assert!(
        file.view.contains("      int f(void)"),
        "`local` is blanked in the view"
    );
    let tree = file.whole_tree();
    let node = find(&tree, &file, "int f", "function_definition");
    let plan = placement::plan(&file, node, InsertAt::Before, "int g;").map_err(|r| r.message);
    let mut set = EditSet::new("t.c", Arc::clone(&file.text));
    set.push(plan.unwrap().ops, 0).unwrap();
    let out = set.apply();
    assert!(out.contains("\nint g;\nlocal int f(void)\n"), "{out}");
}

#[test]
fn lines_inserted_between_two_statements_sharing_a_line_stack_without_a_blank_line() {
    let src = "void f(void) {\n    a(); b();\n}\n";
    let expected = "void f(void) {\n    a();\n    x();\n    y();\n    b();\n}\n";
    // After the first and before the second, in one apply.
    let out = weave(
        src,
        &[
            ("a()", "expression_statement", After, "x();"),
            ("b()", "expression_statement", Before, "y();"),
        ],
    )
    .unwrap();
    assert_eq!(out, expected);
    // Two inserts after the first.
    let out = weave(
        src,
        &[
            ("a()", "expression_statement", After, "x();"),
            ("a()", "expression_statement", After, "y();"),
        ],
    )
    .unwrap();
    assert_eq!(out, expected);
    // After the first alone: the blanks before the second become the end
    // of its indentation, as before it.
    let out = weave(src, &[("a()", "expression_statement", After, "x();")]).unwrap();
    assert_eq!(out, "void f(void) {\n    a();\n    x();\n    b();\n}\n");
    // No blanks between the two.
    let out = weave(
        "void f(void) {\n    a();b();\n}\n",
        &[
            ("a()", "expression_statement", After, "x();"),
            ("b()", "expression_statement", Before, "y();"),
        ],
    )
    .unwrap();
    assert_eq!(out, expected);
}

#[test]
fn a_body_a_directive_separates_from_its_header_is_not_braced() {
    // The front end keeps the first branch; a brace after its header
    // would open in that branch only.
    let text = "void f(int code)\n{\n    code++;\n#ifdef STRICT\n    if (code <= 256)\n#else\n    if (256 <= code)\n#endif\n        g();\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("s.c");
    std::fs::write(&c, text).unwrap();
    let front_end = weft::c::Sources::collect(std::slice::from_ref(&c), false)
        .and_then(|s| s.front_end(None))
        .unwrap();
    let file = front_end.parse(&c, text.into());
    let tree = file.whole_tree();
    let node = find(&tree, &file, "g()", "expression_statement");
    let refusal = placement::plan(&file, node, Before, "x();").unwrap_err();
    assert!(
        refusal.message.contains("preprocessor directive separates"),
        "{}",
        refusal.message
    );
    // Where the header is whole, the body is braced as usual.
    let plain = weave(
        "void f(int c)\n{\n    if (c)\n        g();\n}\n",
        &[("g()", "expression_statement", Before, "x();")],
    );
    assert!(plain.unwrap().contains("if (c) {"));
}
