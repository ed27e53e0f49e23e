//! Facts about tree-sitter-c's node kinds and trees that several modules ask.

use std::sync::LazyLock;

use tree_sitter::Node;

/// A set of tree-sitter-c node kinds, tested by kind id. Hot traversals ask
/// it instead of comparing `Node::kind()`, which measures and checks a C
/// string at every call.
pub struct KindSet {
    member: Vec<bool>,
}

impl KindSet {
    /// The kinds named `names` (every id of each name: tree-sitter may give
    /// one name several ids), plus those whose name starts with one of
    /// `prefixes`.
    pub fn new(names: &[&str], prefixes: &[&str]) -> KindSet {
        let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let member = (0..language.node_kind_count() as u16)
            .map(|id| {
                language
                    .node_kind_for_id(id)
                    .is_some_and(|name| names.contains(&name) || prefixes.iter().any(|p| name.starts_with(p)))
            })
            .collect();
        KindSet { member }
    }

    /// Whether `node`'s kind is in the set.
    pub fn contains(&self, node: Node<'_>) -> bool {
        self.member
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(false)
    }
}

/// The kinds of `is_statement_kind`.
static STATEMENTS: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(STATEMENT_KINDS, &[]));

/// Preprocessor nodes: directives and conditional groups.
pub static PREPROCESSOR: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&[], &["preproc_"]));

/// Whether `node` is a statement (see `is_statement_kind`).
pub fn is_statement(node: Node<'_>) -> bool {
    STATEMENTS.contains(node)
}

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
const STATEMENT_KINDS: &[&str] = &[
    "attributed_statement",
    "break_statement",
    "case_statement",
    "compound_statement",
    "continue_statement",
    "do_statement",
    "expression_statement",
    "for_statement",
    "goto_statement",
    "if_statement",
    "labeled_statement",
    "return_statement",
    "switch_statement",
    "while_statement",
];

/// Whether `kind` is one of tree-sitter-c's statement kinds (the grammar's
/// `statement` supertype); declarations are not among them.
pub fn is_statement_kind(kind: &str) -> bool {
    STATEMENT_KINDS.contains(&kind)
}
