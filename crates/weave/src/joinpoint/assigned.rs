//! Locals that certainly hold a value at a statement: what a trace point
//! inside a function may read without reading an indeterminate value
//! (undefined behaviour, and `-Wmaybe-uninitialized` failures under
//! `-Werror`).
//!
//! The rule is syntactic and conservative. A local declared before the
//! point in a block enclosing it (or in the `for` header enclosing it) is
//! assigned there when
//! - it is `static`, or its declarator has an initializer; or
//! - a statement of a block enclosing the point, after the declaration and
//!   before the statement holding the point, is `x = e;` (a chain
//!   `y = x = e;` counts) or a `for` whose initializer assigns `x` so: every
//!   path from that block's start to the point passes through it, unless a
//!   jump enters between them, so none may (no `case` label there outside a
//!   switch of its own, no label that a `goto` from elsewhere targets); or
//! - the point is in the body or condition of a `for` whose initializer
//!   assigns `x`, and no jump enters that `for` from outside.
//!
//! Anything else (assignments under an `if`, through a pointer, by a macro
//! weft cannot see into, in a labeled statement) is judged "maybe not".

use std::collections::HashSet;

use tree_sitter::Node;

use super::Value;
use super::tree::{assignment_chain, handle};
use weft_c::ParsedFile;
use weft_c::syntax::declarator_name;

/// The locals in scope at statement `point` of file `index` that certainly
/// hold a value there, innermost first, as `vardecl` join points (one per
/// name: an inner declaration hides an outer one).
pub fn assigned_locals(file: &ParsedFile, index: usize, point: Node<'_>) -> Value {
    let point = statement_of(point);
    let Some(function) = ancestors(point).find(|a| a.kind() == "function_definition") else {
        return Value::List(Vec::new());
    };
    let at = At {
        file,
        function,
        point,
        chain: chain(point, function),
    };
    let mut seen: HashSet<String> = HashSet::new();
    let mut out: Vec<Value> = Vec::new();
    for depth in 0..at.chain.len() {
        let before = at.before(depth);
        for (k, item) in before.iter().enumerate() {
            if item.kind().starts_with("preproc_") {
                // Declared under `#if`: it may hide an outer one of its name.
                seen.extend(conditional_names(file, *item));
                continue;
            }
            if item.kind() != "declaration" || !file.is_understood(*item) {
                continue;
            }
            let words = declaration_words(file, *item);
            let is_static = words.iter().any(|w| w == "static");
            let is_extern = words.iter().any(|w| w == "extern");
            for declarator in declarators(*item) {
                let Some(name) = declarator_name(declarator).map(|n| file.node_text(n).to_string()) else {
                    continue;
                };
                if !seen.insert(name.clone()) || is_extern {
                    continue;
                }
                let initialised = declarator.kind() == "init_declarator"
                    || is_static
                    || at.assigned(depth, &before[k + 1..], &name);
                if initialised {
                    out.push(Value::JoinPoint(handle("vardecl", index, declarator)));
                }
            }
        }
    }
    Value::List(out)
}

/// The scopes from `point` out to `function`'s body, each with its child
/// holding the point.
fn chain<'t>(point: Node<'t>, function: Node<'t>) -> Vec<(Node<'t>, Node<'t>)> {
    let mut chain = Vec::new();
    let mut child = point;
    for scope in ancestors(point).take_while(|a| a.id() != function.id()) {
        chain.push((scope, child));
        child = scope;
    }
    chain
}

/// A point, its function and its enclosing scopes.
struct At<'f, 't> {
    file: &'f ParsedFile,
    function: Node<'t>,
    point: Node<'t>,
    chain: Vec<(Node<'t>, Node<'t>)>,
}

impl<'t> At<'_, 't> {
    /// What scope `depth` holds before the point: a block's items before
    /// the child holding it, or a `for`'s initializer for its other parts.
    fn before(&self, depth: usize) -> Vec<Node<'t>> {
        let (scope, child) = self.chain[depth];
        match scope.kind() {
            "compound_statement" => children(scope)
                .into_iter()
                .take_while(|c| c.start_byte() < child.start_byte())
                .collect(),
            "for_statement" if is_for_part(scope, child) => {
                scope.child_by_field_name("initializer").into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether `name`, declared in scope `depth` before `after`, is assigned
    /// on every path to the point: by one of `after`, by a statement before
    /// the point in a block inside that scope, or by a `for` initializer
    /// around the point.
    fn assigned(&self, depth: usize, after: &[Node<'t>], name: &str) -> bool {
        let (scope, child) = self.chain[depth];
        let inner = (0..depth).filter(|&d| self.chain[d].0.kind() == "compound_statement");
        assigned_in_block(self.file, self.function, scope, after, child, name)
            || inner.into_iter().any(|d| {
                let (block, c) = self.chain[d];
                assigned_in_block(self.file, self.function, block, &self.before(d), c, name)
            })
            || assigned_below(self.file, self.function, self.point, scope, name)
    }
}

/// The names declared in the block's own declarations under a
/// preprocessor conditional `n` (not in blocks nested in it).
fn conditional_names(file: &ParsedFile, n: Node<'_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![n];
    while let Some(item) = stack.pop() {
        match item.kind() {
            "declaration" => names.extend(
                declarators(item)
                    .into_iter()
                    .filter_map(declarator_name)
                    .map(|d| file.node_text(d).to_string()),
            ),
            "compound_statement" | "function_definition" => {}
            _ => stack.extend(children(item)),
        }
    }
    names
}

/// The statement a join point stands at: itself, or for an expression its
/// nearest enclosing statement.
fn statement_of(n: Node<'_>) -> Node<'_> {
    std::iter::once(n)
        .chain(ancestors(n))
        .find(|a| weft_c::syntax::is_statement_kind(a.kind()) || a.kind() == "declaration")
        .unwrap_or(n)
}

fn ancestors(n: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(n.parent(), |p| p.parent())
}

fn children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// Whether `child` of `for_stmt` is its body or condition (run after its
/// initializer), not the initializer itself.
fn is_for_part(for_stmt: Node<'_>, child: Node<'_>) -> bool {
    ["body", "condition", "update"]
        .iter()
        .filter_map(|f| for_stmt.child_by_field_name(f))
        .any(|p| p.id() == child.id())
}

/// The declarator children of a declaration.
fn declarators(decl: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = decl.walk();
    decl.children_by_field_name("declarator", &mut cursor).collect()
}

/// The storage-class and qualifier words of a declaration.
fn declaration_words(file: &ParsedFile, decl: Node<'_>) -> Vec<String> {
    children(decl)
        .into_iter()
        .filter(|c| c.kind() == "storage_class_specifier")
        .map(|c| file.node_text(c).trim().to_string())
        .collect()
}

/// Whether `name` is assigned by one of `items`, the statements of block
/// `scope` after its declaration and before `child`, the statement holding
/// the point, with no jump entering between that statement and `child`.
fn assigned_in_block(
    file: &ParsedFile,
    function: Node<'_>,
    scope: Node<'_>,
    items: &[Node<'_>],
    child: Node<'_>,
    name: &str,
) -> bool {
    if scope.kind() != "compound_statement" {
        return false;
    }
    items.iter().any(|s| {
        let assigns = match s.kind() {
            "expression_statement" => s.named_child(0).is_some_and(|e| assigns(file, e, name)),
            "for_statement" => s
                .child_by_field_name("initializer")
                .is_some_and(|e| assigns(file, e, name)),
            _ => false,
        };
        // Entries to check: from just after the assignment to the point.
        assigns
            && !entered_between(
                file,
                function,
                s.end_byte()..child.end_byte(),
                s.end_byte()..scope.end_byte(),
            )
    })
}

/// Whether `point` lies in the body or condition of a `for` inside `scope`
/// whose initializer assigns `name`, and no jump enters that `for`.
fn assigned_below(
    file: &ParsedFile,
    function: Node<'_>,
    point: Node<'_>,
    scope: Node<'_>,
    name: &str,
) -> bool {
    ancestors(point)
        .take_while(|a| a.id() != scope.id())
        .filter(|a| a.kind() == "for_statement")
        .any(|f| {
            f.child_by_field_name("initializer")
                .is_some_and(|e| e.kind() != "declaration" && assigns(file, e, name))
                && !entered_between(file, function, f.byte_range(), f.byte_range())
        })
}

/// Whether expression `e` certainly assigns `name` with a plain `=`: an
/// assignment `name = …`, a chain of them, or a comma list holding one.
fn assigns(file: &ParsedFile, e: Node<'_>, name: &str) -> bool {
    match e.kind() {
        "assignment_expression" => assignment_chain(e).is_some_and(|(targets, value)| {
            targets
                .iter()
                .any(|t| t.kind() == "identifier" && file.node_text(*t) == name)
                || assigns(file, value, name)
        }),
        "comma_expression" => children(e).into_iter().any(|c| assigns(file, c, name)),
        "parenthesized_expression" => e.named_child(0).is_some_and(|c| assigns(file, c, name)),
        _ => false,
    }
}

/// Whether control can enter `region` other than from its start: a `case`
/// or `default` label in it outside a switch of its own, or a label in it
/// that a `goto` outside `allowed` targets.
fn entered_between(
    file: &ParsedFile,
    function: Node<'_>,
    region: std::ops::Range<usize>,
    allowed: std::ops::Range<usize>,
) -> bool {
    let mut labels: Vec<String> = Vec::new();
    let mut gotos: Vec<(String, usize)> = Vec::new();
    let mut stack = vec![(function, false)];
    while let Some((n, in_switch)) = stack.pop() {
        let inside = n.start_byte() >= region.start && n.end_byte() <= region.end;
        match n.kind() {
            "case_statement" if inside && !in_switch => return true,
            "labeled_statement" if inside => {
                if let Some(l) = n.child_by_field_name("label") {
                    labels.push(file.node_text(l).to_string());
                }
            }
            "goto_statement" => {
                if let Some(l) = n.child_by_field_name("label") {
                    gotos.push((file.node_text(l).to_string(), n.start_byte()));
                }
            }
            _ => {}
        }
        // A switch that starts inside the region owns the cases under it.
        let switch_inside = in_switch || (n.kind() == "switch_statement" && n.start_byte() >= region.start);
        let mut cursor = n.walk();
        for c in n.children(&mut cursor) {
            stack.push((c, switch_inside));
        }
    }
    gotos
        .iter()
        .any(|(label, at)| labels.contains(label) && !allowed.contains(at))
}

#[cfg(test)]
mod tests;
