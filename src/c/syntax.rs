//! Facts about tree-sitter-c's node kinds and trees that several modules ask.

use tree_sitter::Node;

/// The ancestors of `node` under `root`, root first, in one walk down from
/// `root`. tree-sitter nodes have no parent pointer: each `parent()` call
/// walks down from the root, so climbing a chain of them costs depth² steps.
pub fn ancestors<'t>(root: Node<'t>, node: Node<'t>) -> Vec<Node<'t>> {
    let mut above = Vec::new();
    let mut n = root;
    while n.id() != node.id() {
        above.push(n);
        match n.child_with_descendant(node) {
            Some(child) => n = child,
            None => break,
        }
    }
    above
}

/// tree-sitter-c's statement kinds (the grammar's `statement` supertype);
/// declarations are not among them.
pub fn is_statement_kind(kind: &str) -> bool {
    matches!(
        kind,
        "attributed_statement"
            | "break_statement"
            | "case_statement"
            | "compound_statement"
            | "continue_statement"
            | "do_statement"
            | "expression_statement"
            | "for_statement"
            | "goto_statement"
            | "if_statement"
            | "labeled_statement"
            | "return_statement"
            | "switch_statement"
            | "while_statement"
    )
}
