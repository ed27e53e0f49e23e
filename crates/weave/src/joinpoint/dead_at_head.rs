//! Variables a loop overwrites before it reads them: dead at the loop head,
//! so their value there decides nothing and is no part of the loop's state.
//! Reading them there would also read an indeterminate value on the first
//! iteration (`int tag; while (…) { tag = …; … }`), which compilers warn
//! about and C leaves undefined.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::slice::var_names;
use super::tree::assignment_chain;
use weft_c::ParsedFile;

/// Whether every iteration of loop `lp` assigns `name` with a plain `=`
/// before reading it: the loop's condition and update do not mention it,
/// and the first statement of the body that does begins by assigning it
/// (`name = e;`, `a = name = e;`, or a `for` whose initializer does, as
/// in `for (tag = i = 0; …)`), with `e` not reading `name`. A loop that
/// can be entered other than at its head (a label inside it, a `case` of a
/// switch around it) is never judged so.
pub fn dead_at_head(file: &ParsedFile, lp: Node<'_>, name: &str) -> bool {
    let mentions = |n: Node<'_>| var_names(file, n).contains(name);
    let header = ["condition", "update"]
        .iter()
        .filter_map(|f| lp.child_by_field_name(f));
    if header.clone().any(mentions) || entered_elsewhere(lp) {
        return false;
    }
    let Some(body) = lp.child_by_field_name("body") else {
        return false;
    };
    let statements: Vec<Node<'_>> = if body.kind() == "compound_statement" {
        let mut cursor = body.walk();
        body.named_children(&mut cursor)
            .filter(|s| s.kind() != "comment")
            .collect()
    } else {
        vec![body]
    };
    statements
        .into_iter()
        .find(|s| mentions(*s))
        .is_some_and(|s| assigns_first(file, s, name))
}

/// Whether statement `s`, which mentions `name`, assigns it before
/// anything in it reads it: an expression statement, or a `for` by its
/// initializer (which runs first, once).
fn assigns_first(file: &ParsedFile, s: Node<'_>, name: &str) -> bool {
    let first = match s.kind() {
        "expression_statement" => s.named_child(0),
        "for_statement" => s.child_by_field_name("initializer"),
        _ => None,
    };
    first.is_some_and(|e| expression_assigns_first(file, e, name) == Some(true))
}

/// For an expression: `Some(true)` when the first of its comma-separated
/// parts that mentions `name` assigns it plainly without reading it
/// (in a chain `a = b = e`, every target is assigned and only `e` is
/// read), `Some(false)` when that part does anything else with it, `None`
/// when no part mentions it.
fn expression_assigns_first(file: &ParsedFile, e: Node<'_>, name: &str) -> Option<bool> {
    if e.kind() == "comma_expression" {
        let part = |field| e.child_by_field_name(field);
        return part("left")
            .and_then(|l| expression_assigns_first(file, l, name))
            .or_else(|| part("right").and_then(|r| expression_assigns_first(file, r, name)));
    }
    if !var_names(file, e).contains(name) {
        return None;
    }
    let Some((targets, value)) = assignment_chain(e) else {
        return Some(false);
    };
    let names: Option<BTreeSet<&str>> = targets
        .iter()
        .map(|t| (t.kind() == "identifier").then(|| file.node_text(*t)))
        .collect();
    Some(names.is_some_and(|n| n.contains(name)) && !var_names(file, value).contains(name))
}

/// Whether control can reach the inside of `lp` without passing its head:
/// a label in it, or a `case`/`default` of a switch that encloses it.
fn entered_elsewhere(lp: Node<'_>) -> bool {
    let mut cursor = lp.walk();
    let mut stack = vec![lp];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "labeled_statement" => return true,
            "case_statement" if !switch_inside(lp, n) => return true,
            _ => {}
        }
        stack.extend(n.children(&mut cursor));
    }
    false
}

/// Whether the switch that `case_label` belongs to is inside loop `lp`.
fn switch_inside(lp: Node<'_>, case_label: Node<'_>) -> bool {
    std::iter::successors(case_label.parent(), |n| n.parent())
        .take_while(|n| n.id() != lp.id())
        .any(|n| n.kind() == "switch_statement")
}

#[cfg(test)]
mod tests {
    use super::super::tree::first_loop;
    use super::*;

    fn dead(src: &str, name: &str) -> bool {
        let file = ParsedFile::parse_plain("t.c", src);
        let tree = file.whole_tree();
        let lp = first_loop(tree.root_node()).expect("a loop");
        dead_at_head(&file, lp, name)
    }

    #[test]
    fn a_variable_assigned_first_on_every_path_is_dead() {
        let loop_ =
            "void f(long s, int a) { int t, i; while (s < 10) { t = a + s; i = t % 3; s += 1 + i; } }";
        assert!(dead(loop_, "t"));
        assert!(dead(loop_, "i"));
        assert!(!dead(loop_, "s"), "read by the condition");
    }

    #[test]
    fn a_chain_or_an_inner_for_initializer_assigns_first() {
        let inner = "int g(void); void f(long s) { int tag, i; while (s < 10) { for (tag = i = 0; i < 4; i++) tag = tag << 8 | g(); s += tag; } }";
        assert!(dead(inner, "tag"));
        assert!(dead(inner, "i"));
        let comma = "void f(int s) { int i, t; while (s) { for (i = 0, t = i; i < 3; i++) s -= t; } }";
        assert!(dead(comma, "i"));
        assert!(dead(comma, "t"), "assigned from i, not from itself");
        assert!(dead(
            "void f(int s) { int a, b; while (s) { a = b = s; s -= a + b; } }",
            "b"
        ));
    }

    #[test]
    fn a_read_first_a_guarded_write_or_a_jump_in_keeps_it_live() {
        assert!(!dead("void f(int s, int t) { while (s) { s = t; t = s; } }", "t"));
        assert!(!dead(
            "void f(int s, int t) { while (s) { if (s > 2) t = 1; s = t; } }",
            "t"
        ));
        assert!(!dead(
            "void f(int s, int t) { while (s) { t = t + 1; s = t; } }",
            "t"
        ));
        assert!(!dead(
            "void f(int s, int t) { for (; s; t++) { t = 1; s = t; } }",
            "t"
        ));
        assert!(!dead(
            "void f(int s, int t, int k) { switch (k) { case 0: while (s) { t = 1; case 1: s = t; } } }",
            "t"
        ));
        assert!(!dead(
            "void f(int s, int t) { while (s) { t = 1; again: s = t; } goto again; }",
            "t"
        ));
        assert!(!dead(
            "void f(int s, int i) { while (s) { for (i = i + 1; i < 4; i++) s--; } }",
            "i"
        ));
        assert!(!dead(
            "void f(int s, int i) { while (s) { for (s = 0, i += 1; i < 4; i++) s--; } }",
            "i"
        ));
        assert!(!dead(
            "void f(int s, int i) { while (s) { for (; i < 4; i = 0) s--; } }",
            "i"
        ));
    }
}
