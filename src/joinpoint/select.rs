//! Selection: the join points of one kind under a parent join point, in
//! source order, computed from the tree on demand with one traversal.

use tree_sitter::Node;

use super::JoinPoint;
use super::catalogue::{self, KindSpec};
use super::params::parameters;
use super::tree::{
    Shape, declarator_name, declarator_shape, function_name, handle, is_expression_kind, is_loop_kind,
    is_statement_kind, node, understood,
};
use super::vars::is_var_use;
use crate::c::ParsedFile;
use crate::engine::HostError;

/// The join points of kind `kind` (canonical name or alias) selected from
/// `parent`, in source order.
pub fn select(files: &[ParsedFile], parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
    let parent_spec = catalogue::kind(parent.kind)
        .ok_or_else(|| HostError::Failed(format!("unknown join point kind `{}`", parent.kind)))?;
    let spec = parent_spec
        .child(kind)
        .ok_or_else(|| unknown_kind(parent_spec, kind))?;
    let mut out = Vec::new();
    match parent.file {
        None => {
            for (index, file) in files.iter().enumerate() {
                let root = file.tree.root_node();
                if spec.name == "file" {
                    out.push(handle("file", index, root));
                } else {
                    collect(file, index, root, "file", spec.name, &mut out);
                }
            }
        }
        Some(index) => {
            let file = files.get(index).ok_or_else(|| stale(parent))?;
            let scope = node(files, parent).ok_or_else(|| stale(parent))?;
            collect(file, index, scope, parent.kind, spec.name, &mut out);
        }
    }
    Ok(out)
}

fn unknown_kind(parent: &KindSpec, name: &str) -> HostError {
    let candidates = parent.selects.iter().flat_map(|k| {
        catalogue::kind(k)
            .into_iter()
            .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().copied()))
    });
    HostError::UnknownKind {
        parent: parent.name.to_string(),
        name: name.to_string(),
        suggestion: catalogue::suggest(candidates, name).map(String::from),
    }
}

/// The error for a handle that no longer designates a node.
pub fn stale(jp: &JoinPoint) -> HostError {
    HostError::Failed(format!(
        "stale `{}` join point at bytes {}..{}: the program changed since it was selected",
        jp.kind, jp.range.start, jp.range.end
    ))
}

/// Appends the join points of kind `kind` under `scope` (a node of kind
/// `scope_kind`) to `out`.
fn collect(
    file: &ParsedFile,
    index: usize,
    scope: Node<'_>,
    scope_kind: &str,
    kind: &'static str,
    out: &mut Vec<JoinPoint>,
) {
    match kind {
        "param" => {
            for f in owners(file, scope, scope_kind) {
                if f.kind() == "function_definition" {
                    out.extend(parameters(file, f).into_iter().map(|p| handle("param", index, p)));
                }
            }
        }
        "body" => {
            for owner in owners(file, scope, scope_kind) {
                out.extend(body_of(owner).map(|b| handle("body", index, b)));
            }
        }
        "first_stmt" | "last_stmt" | "first_decl" | "last_decl" => {
            let bodies: Vec<Node<'_>> = if scope_kind == "body" {
                vec![scope]
            } else {
                owners(file, scope, scope_kind)
                    .into_iter()
                    .filter_map(body_of)
                    .collect()
            };
            for body in bodies {
                out.extend(role(body, kind).map(|s| handle(kind, index, s)));
            }
        }
        _ => {
            // Code under a function is its body: parameter declarators and
            // the name are not code.
            let scope = if scope_kind == "function" {
                match scope.child_by_field_name("body") {
                    Some(b) if understood(file, scope) => b,
                    _ => return,
                }
            } else {
                scope
            };
            descendants(
                file,
                scope,
                |n, field| matches(file, kind, n, field),
                |n| out.push(handle(kind, index, n)),
            );
        }
    }
}

/// The nodes owning bodies and parameters reached from `scope`: the
/// function or loop itself, or the understood functions in a file.
fn owners<'t>(file: &ParsedFile, scope: Node<'t>, scope_kind: &str) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    match scope_kind {
        "function" | "loop" => found.push(scope),
        _ => descendants(
            file,
            scope,
            |n, _| n.kind() == "function_definition" && function_name(file, n).is_some(),
            |n| found.push(n),
        ),
    }
    found.retain(|n| understood(file, *n) || n.kind() != "function_definition");
    found
}

/// The body of a function or loop.
fn body_of(owner: Node<'_>) -> Option<Node<'_>> {
    owner.child_by_field_name("body")
}

/// The statements directly in a body: the items of a block, or the single
/// statement of a brace-less loop body.
pub fn statements(body: Node<'_>) -> Vec<Node<'_>> {
    if body.kind() != "compound_statement" {
        return vec![body];
    }
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter(|s| is_statement_kind(s.kind()) || is_declaration(*s))
        .collect()
}

fn is_declaration(node: Node<'_>) -> bool {
    matches!(node.kind(), "declaration" | "type_definition")
}

/// The statement of a body playing `role` (first_stmt, last_stmt,
/// first_decl, last_decl).
fn role<'t>(body: Node<'t>, role: &str) -> Option<Node<'t>> {
    let stmts = statements(body);
    let mut decls = stmts.iter().filter(|s| s.kind() == "declaration");
    match role {
        "first_stmt" => stmts.iter().find(|s| !is_declaration(**s)).copied(),
        "last_stmt" => stmts.last().copied(),
        "first_decl" => decls.next().copied(),
        _ => decls.next_back().copied(),
    }
}

/// Whether node `n` (under field `field` of its parent) is a join point of
/// the code kind `kind`.
fn matches(file: &ParsedFile, kind: &str, n: Node<'_>, field: Option<&str>) -> bool {
    let k = n.kind();
    let parent_kind = || n.parent().map_or("", |p| p.kind());
    match kind {
        "function" => k == "function_definition" && function_name(file, n).is_some(),
        "stmt" => {
            (is_statement_kind(k) && !(k == "compound_statement" && parent_kind() == "function_definition"))
                || (is_declaration(n) && in_block(n))
        }
        "decl" => k == "declaration" && parent_kind() != "function_definition",
        "vardecl" => {
            field == Some("declarator")
                && n.parent().is_some_and(|p| {
                    p.kind() == "declaration" && p.parent().is_none_or(|g| g.kind() != "function_definition")
                })
                && declarator_shape(n) != Shape::Function
                && declarator_name(n).is_some()
        }
        "var" => is_var_use(n, field),
        "assignment" => k == "assignment_expression",
        "call" => k == "call_expression",
        "arg" => parent_kind() == "argument_list" && n.is_named() && k != "comment",
        "return" => k == "return_statement",
        "loop" => is_loop_kind(k),
        "if" => k == "if_statement",
        "switch" => k == "switch_statement",
        "expression" => is_expression_kind(k),
        "binaryOp" => k == "binary_expression",
        "unaryOp" => matches!(k, "unary_expression" | "pointer_expression" | "update_expression"),
        "arrayAccess" => k == "subscript_expression",
        "memberAccess" => k == "field_expression",
        _ => false,
    }
}

/// Whether a declaration is an item of a block (possibly inside
/// conditional groups), i.e. a statement of a function.
fn in_block(n: Node<'_>) -> bool {
    std::iter::successors(n.parent(), |p| p.parent())
        .find(|p| !p.kind().starts_with("preproc_"))
        .is_some_and(|p| p.kind() == "compound_statement")
}

/// Whether the traversal looks inside `n`: never inside what was not
/// understood, nor inside preprocessor directives (their names and
/// conditions are not code), attributes, or type definitions.
fn enters(file: &ParsedFile, n: Node<'_>, field: Option<&str>) -> bool {
    let k = n.kind();
    if skipped(file, n) || k == "function_definition" && !understood(file, n) {
        return false;
    }
    if field == Some("condition") && matches!(k, "preproc_if" | "preproc_elif") {
        return false;
    }
    !matches!(
        k,
        "preproc_def"
            | "preproc_function_def"
            | "preproc_call"
            | "preproc_include"
            | "preproc_defined"
            | "attribute_specifier"
            | "attribute_declaration"
            | "ms_declspec_modifier"
            | "struct_specifier"
            | "union_specifier"
            | "enum_specifier"
            | "type_descriptor"
            | "type_definition"
            | "macro_type_specifier"
            | "string_literal"
            | "char_literal"
            | "comment"
    )
}

/// Whether `n` and everything in it are left out: what was not understood
/// (errors, missing and empty nodes, declarations with any of these) and
/// statements outside functions, which tree-sitter-c accepts only when it
/// misreads a macro use at file scope.
fn skipped(file: &ParsedFile, n: Node<'_>) -> bool {
    n.is_error()
        || n.is_missing()
        || n.byte_range().is_empty()
        || n.kind() == "declaration" && !understood(file, n)
        || is_statement_kind(n.kind()) && !in_function(n)
}

fn in_function(n: Node<'_>) -> bool {
    std::iter::successors(n.parent(), |p| p.parent())
        .find(|p| !p.kind().starts_with("preproc_"))
        .is_some_and(|p| p.kind() != "translation_unit")
}

/// Visits the strict descendants of `scope` in source order (one
/// traversal), calling `found` for each one `wanted` accepts.
fn descendants<'t>(
    file: &ParsedFile,
    scope: Node<'t>,
    mut wanted: impl FnMut(Node<'t>, Option<&str>) -> bool,
    mut found: impl FnMut(Node<'t>),
) {
    let mut cursor = scope.walk();
    if !cursor.goto_first_child() {
        return;
    }
    loop {
        let n = cursor.node();
        let field = cursor.field_name();
        let whole = !skipped(file, n);
        if whole && wanted(n, field) {
            found(n);
        }
        if enters(file, n, field) && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() || cursor.node().id() == scope.id() {
                return;
            }
        }
    }
}

/// The number of join points of code kind `kind` under `scope`.
pub fn count(file: &ParsedFile, scope: Node<'_>, kind: &str) -> usize {
    let mut n = 0;
    descendants(file, scope, |c, field| matches(file, kind, c, field), |_| n += 1);
    n
}
