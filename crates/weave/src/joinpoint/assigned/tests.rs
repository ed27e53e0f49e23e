use tree_sitter::Node;

use super::*;

/// The names `assigned_locals` gives at the statement `mark();` of `src`.
fn at_mark(src: &str) -> Vec<String> {
    let file = ParsedFile::parse_plain("t.c", src);
    fn find<'t>(file: &ParsedFile, n: Node<'t>) -> Option<Node<'t>> {
        if n.kind() == "expression_statement" && file.node_text(n) == "mark();" {
            return Some(n);
        }
        let mut cursor = n.walk();
        let kids: Vec<Node<'t>> = n.children(&mut cursor).collect();
        kids.into_iter().find_map(|c| find(file, c))
    }
    let tree = file.whole_tree();
    let mark = find(&file, tree.root_node()).expect("a `mark();` statement");
    let Value::List(jps) = assigned_locals(&file, 0, mark) else {
        panic!("not a list");
    };
    jps.iter()
        .map(|v| match v {
            Value::JoinPoint(jp) => {
                let tree = file.whole_tree();
                let n = tree
                    .root_node()
                    .descendant_for_byte_range(jp.range.start, jp.range.end)
                    .expect("node");
                file.node_text(declarator_name(n).unwrap_or(n)).to_string()
            }
            other => panic!("not a join point: {other:?}"),
        })
        .collect()
}

#[test]
fn initialised_static_and_assigned_locals_are_listed_innermost_first() {
    let src = "int f(int p) { int a = 1, b; static int s; int c; c = p; \
               { int d; d = c; mark(); } return a; }";
    assert_eq!(at_mark(src), ["d", "a", "s", "c"]);
}

#[test]
fn guarded_later_or_jumped_over_assignments_do_not_count() {
    assert!(at_mark("void f(int p) { int x; if (p) x = 1; mark(); }").is_empty());
    assert!(at_mark("void f(int p) { int x; mark(); x = 1; }").is_empty());
    assert!(at_mark("void f(int p) { int x; x += 1; mark(); }").is_empty());
    assert!(
        at_mark("void f(int p) { int x; if (p) goto in; x = 1; in: mark(); }").is_empty(),
        "a goto from before the assignment enters past it"
    );
    assert!(
        at_mark("void f(int p) { int x; switch (p) { x = 1; case 1: mark(); } }").is_empty(),
        "a case label enters past it"
    );
    // A goto after the assignment comes back through it.
    assert_eq!(
        at_mark("void f(int p) { int x; x = 1; again: mark(); if (p--) goto again; }"),
        ["x"]
    );
}

#[test]
fn for_initializers_assign_and_inner_declarations_hide_outer_ones() {
    assert_eq!(
        at_mark("void f(int n) { int i; for (i = 0; i < n; i++) mark(); }"),
        ["i"]
    );
    assert_eq!(
        at_mark("void f(int n) { int i; for (i = 0; i < n; i++) ; mark(); }"),
        ["i"]
    );
    assert_eq!(
        at_mark("void f(int n) { for (int i = 0; i < n; i++) { mark(); } }"),
        ["i"]
    );
    assert!(
        at_mark("void f(int n) { int x = 1; { int x; mark(); } }").is_empty(),
        "the inner, unassigned x hides the outer one"
    );
    assert!(at_mark("void f(void) { extern int g; mark(); }").is_empty());
    assert!(
        at_mark("void f(void) { int x = 1; {\n#ifdef A\n int x;\n#endif\n mark(); } }").is_empty(),
        "an x declared under #ifdef may hide the outer one"
    );
}
