//! Old-style (K&R) definitions: their parameter declarations stay in the
//! view when tree-sitter-c parses them, and fall back to blanks (reported,
//! the function still understood) when it does not.

use std::path::Path;
use std::sync::Arc;
use weft::c::{FrontEnd, MacroTable, ParsedFile};

const FIXTURE: &str = include_str!("fixtures/frontend/old_style.c");

fn parse() -> ParsedFile {
    let macros = MacroTable::learn([(Path::new("old_style.c"), FIXTURE)]);
    FrontEnd::new(macros).parse(Path::new("old_style.c"), Arc::from(FIXTURE))
}

#[test]
fn every_old_style_definition_is_understood() {
    let pf = parse();
    assert!(pf.problems.is_empty(), "{:?}", pf.problems);
    let mut functions = Vec::new();
    let tree = pf.whole_tree();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_definition" {
            functions.push(pf.is_understood(n));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    assert_eq!(functions, [true; 5]);
}

#[test]
fn declarations_the_grammar_accepts_stay_in_the_view() {
    let pf = parse();
    for kept in [
        "    int a;\n    char *b;\n{",
        "    register ush x, y; /* both at once */\n{",
        "    int (*fn)();\n",
    ] {
        assert!(pf.view.contains(kept), "{kept:?} not in the view:\n{}", pf.view);
    }
    // Repairs inside them are made as anywhere else.
    assert!(pf.view.contains("    unsigned char      *buf;"));
}

#[test]
fn declarations_the_grammar_rejects_fall_back_to_untyped_parameters() {
    let raw = ParsedFile::parse_plain("old_style.c", FIXTURE);
    let lower = FIXTURE.find("char *lower").unwrap();
    let tree = raw.whole_tree();
    let error = tree
        .root_node()
        .descendant_for_byte_range(lower, lower + 40)
        .unwrap();
    assert!(
        std::iter::successors(Some(error), |n| n.parent()).any(|n| n.has_error()),
        "tree-sitter-c is expected to reject `char *lower(s, n) char *s; …`"
    );
    let pf = parse();
    let header = pf.view.find("char *lower(s, n)").unwrap() + "char *lower(s, n)".len();
    let declarations = &pf.view[header..header + pf.view[header..].find('{').unwrap()];
    assert!(declarations.trim().is_empty(), "{declarations:?}");
    let lines: Vec<(usize, &str)> = pf.skipped.iter().map(|s| (s.line, s.reason.as_str())).collect();
    assert_eq!(
        lines,
        [
            (
                30,
                "old-style parameter declarations not parsed, parameters untyped"
            ),
            (
                39,
                "old-style parameter declarations not parsed, parameters untyped"
            )
        ]
    );
}

#[test]
fn implicit_int_definitions_are_functions_with_their_locals_inside() {
    let src = "static int count;\n\nstatic twice(v) int v;\n{\n    int count = v;\n    return 2 * count;\n}\n\nmain(argc, argv) int argc; char *argv[];\n{\n    int count = argc;\n    return twice(count);\n}\n";
    let pf = FrontEnd::new(MacroTable::default()).parse(Path::new("implicit.c"), Arc::from(src));
    let tree = pf.whole_tree();
    let root = tree.root_node();
    let mut c = root.walk();
    let kinds: Vec<&str> = root.named_children(&mut c).map(|n| n.kind()).collect();
    assert_eq!(
        kinds,
        ["declaration", "function_definition", "function_definition"],
        "{}",
        pf.view
    );
    let mut c = root.walk();
    assert!(
        root.named_children(&mut c).all(|n| pf.is_understood(n)),
        "{:?}",
        pf.problems
    );
    // The implicit result is written in the view, not in the source.
    assert!(pf.view.contains("int main(argc, argv)"), "{}", pf.view);
    assert!(pf.view.contains("static int twice(v)"), "{}", pf.view);
}
