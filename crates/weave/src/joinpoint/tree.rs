//! Helpers over tree-sitter-c nodes shared by selection and attributes:
//! resolving handles, classifying nodes into join point kinds, and telling
//! which parts of a tree are understood.

use std::sync::LazyLock;

use tree_sitter::{Node, Tree};

use super::JoinPoint;
use weft_c::ParsedFile;
use weft_c::syntax::{declarator_name, kind_id, macro_made_name};

/// The tree holding a handle's node ([`ParsedFile::tree_at`]), or `None`
/// when it names no file. Keep it while using the node.
pub fn tree_of(files: &[ParsedFile], jp: &JoinPoint) -> Option<Tree> {
    Some(files.get(jp.file?)?.tree_at(jp.range.start))
}

/// Resolves a handle to its node in `tree` (the handle's [`tree_of`]), or
/// `None` when the handle is stale (the text changed). The `file` join
/// point's node is the root: for a file parsed in chunks, its first
/// chunk's, which starts where the file's does (its range is the handle's,
/// not the node's).
pub fn node<'t>(tree: &'t Tree, jp: &JoinPoint) -> Option<Node<'t>> {
    let root = tree.root_node();
    if jp.kind == "file" {
        return Some(root);
    }
    // The smallest node spanning the range, then up through the nodes sharing
    // that exact range until the kind matches.
    let mut n = root.descendant_for_byte_range(jp.range.start, jp.range.end)?;
    while n.byte_range() == jp.range {
        if n.kind_id() == jp.node_kind {
            return Some(n);
        }
        n = n.parent()?;
    }
    None
}

/// The `file` join point of file `file` (index `index`): its range is the
/// whole tree's root's.
pub fn file_handle(index: usize, file: &ParsedFile) -> JoinPoint {
    JoinPoint {
        kind: "file",
        file: Some(index),
        range: file.root_range(),
        node_kind: *TRANSLATION_UNIT,
    }
}

/// tree-sitter-c's id of the root's kind.
static TRANSLATION_UNIT: LazyLock<u16> = LazyLock::new(|| kind_id("translation_unit"));

/// A handle to `node` of file `file` as a join point of kind `kind`.
pub fn handle(kind: &'static str, file: usize, node: Node<'_>) -> JoinPoint {
    JoinPoint {
        kind,
        file: Some(file),
        range: node.byte_range(),
        node_kind: node.kind_id(),
    }
}

/// Whether the front end understood `node` well enough for join points to be
/// produced inside it (no ERROR/MISSING node, no problem region, no
/// synthesized text).
pub fn understood(file: &ParsedFile, node: Node<'_>) -> bool {
    file.is_understood(node)
}

/// Whether a node may be a function's name: a definition's declarator chain
/// is free of errors and ends in a name. A name a macro call makes
/// (`PREFIX(scanToken)(…)`) is the call as written: the name says it is
/// no identifier.
pub fn function_name<'t>(file: &'t ParsedFile, function: Node<'_>) -> Option<&'t str> {
    let declarator = function.child_by_field_name("declarator")?;
    if declarator.has_error() {
        return None;
    }
    if let Some(call) = macro_made_name(declarator) {
        return Some(file.original_text(call).unwrap_or_else(|| file.node_text(call)));
    }
    let name = declarator_name(declarator)?;
    Some(file.node_text(name))
}

/// What a declarator makes of its name, read inside out: the derived
/// declarator closest to the name decides (`*a[4]` is an array of
/// pointers, `(*a)[4]` a pointer to an array).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Plain,
    Pointer,
    Array,
    Function,
}

/// The [`Shape`] of a declarator.
pub fn declarator_shape(declarator: Node<'_>) -> Shape {
    let mut shape = Shape::Plain;
    let mut d = declarator;
    loop {
        let next = match d.kind() {
            "pointer_declarator" | "abstract_pointer_declarator" => {
                shape = Shape::Pointer;
                d.child_by_field_name("declarator")
            }
            "array_declarator" | "abstract_array_declarator" => {
                shape = Shape::Array;
                d.child_by_field_name("declarator")
            }
            "function_declarator" | "abstract_function_declarator" => {
                shape = Shape::Function;
                d.child_by_field_name("declarator")
            }
            "parenthesized_declarator" | "abstract_parenthesized_declarator" => d.named_child(0),
            "identifier" | "type_identifier" | "field_identifier" => None,
            _ => d.child_by_field_name("declarator"),
        };
        match next {
            Some(n) => d = n,
            None => return shape,
        }
    }
}

/// The field name under which `node` hangs in its parent.
pub fn field_in_parent<'t>(node: Node<'t>) -> Option<&'t str> {
    let parent = node.parent()?;
    let mut cursor = parent.walk();
    if !cursor.goto_first_child() {
        return None;
    }
    loop {
        if cursor.node().id() == node.id() {
            return cursor.field_name();
        }
        if !cursor.goto_next_sibling() {
            return None;
        }
    }
}

/// The nearest ancestor that is not a parenthesized expression, with the
/// child of it on the way (`(x) = 1`: the assignment and `(x)`).
pub fn unparenthesized_parent(node: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let mut child = node;
    let mut parent = node.parent()?;
    while parent.kind() == "parenthesized_expression" {
        child = parent;
        parent = parent.parent()?;
    }
    Some((parent, child))
}

/// A chain of plain assignments `a = b = e` at `e`: its targets, outermost
/// first, and the value `e` they all get; none when `e` is not a plain `=`
/// (a compound assignment, or no assignment).
pub fn assignment_chain(e: Node<'_>) -> Option<(Vec<Node<'_>>, Node<'_>)> {
    let plain = |n: Node<'_>| {
        n.kind() == "assignment_expression"
            && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "=")
    };
    if !plain(e) {
        return None;
    }
    let mut targets = Vec::new();
    let mut value = e;
    while plain(value) {
        targets.push(value.child_by_field_name("left")?);
        value = value.child_by_field_name("right")?;
    }
    Some((targets, value))
}

pub use weft_c::syntax::is_statement_kind;

/// tree-sitter-c's expression kinds (the `expression` supertype), except
/// the bare identifier.
pub fn is_expression_kind(kind: &str) -> bool {
    matches!(
        kind,
        "alignof_expression"
            | "assignment_expression"
            | "binary_expression"
            | "call_expression"
            | "cast_expression"
            | "char_literal"
            | "compound_literal_expression"
            | "concatenated_string"
            | "conditional_expression"
            | "extension_expression"
            | "false"
            | "field_expression"
            | "generic_expression"
            | "gnu_asm_expression"
            | "null"
            | "number_literal"
            | "offsetof_expression"
            | "parenthesized_expression"
            | "pointer_expression"
            | "sizeof_expression"
            | "string_literal"
            | "subscript_expression"
            | "true"
            | "unary_expression"
            | "update_expression"
            | "comma_expression"
    )
}

/// Whether `kind` is a loop statement.
pub fn is_loop_kind(kind: &str) -> bool {
    matches!(kind, "for_statement" | "while_statement" | "do_statement")
}

/// The first loop at or under `n`, in source order.
#[cfg(test)]
pub fn first_loop(n: Node<'_>) -> Option<Node<'_>> {
    if is_loop_kind(n.kind()) {
        return Some(n);
    }
    (0..n.child_count()).find_map(|i| n.child(i).and_then(first_loop))
}

/// 1-based line and column of a view offset, in the original text.
pub fn line_column(file: &ParsedFile, view_offset: usize) -> (usize, usize) {
    let location = file.location(file.map.approximate(view_offset));
    (location.line, location.col)
}

/// The operator of a unary, binary, update or assignment expression (its
/// anonymous token's kind is its text).
pub fn operator<'t>(n: Node<'t>) -> Option<&'t str> {
    n.child_by_field_name("operator").map(|o| o.kind())
}

/// `n` without the parentheses around it.
pub fn unparenthesized(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}
