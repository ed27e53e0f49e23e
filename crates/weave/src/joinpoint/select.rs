//! Selection: the join points of one kind under a parent join point, in
//! source order, computed from the tree on demand with one traversal.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::JoinPoint;
use super::catalogue::{self, KindSpec};
use super::params::parameters;
use super::tree::{
    Shape, declarator_shape, file_handle, function_name, handle, is_expression_kind, is_loop_kind,
    is_statement_kind, node, tree_of, understood,
};
use super::vars::is_var_use;
use weft_c::ParsedFile;
use weft_c::syntax::{
    KindSet, PREPROCESSOR, ancestors, conditional_branches, declarator_name, holds_no_block,
    holds_no_statement, is_conditional_group, is_declaration_item, is_statement, root_of,
};
use weft_lang::engine::{HostError, Part};

/// The join points of kind `kind` (canonical name or alias) selected from
/// `parent`, in source order.
pub fn select(files: &[ParsedFile], parent: &JoinPoint, kind: &str) -> Result<Vec<JoinPoint>, HostError> {
    let mut out = Vec::new();
    let mut from = Some(Part::FIRST);
    while let Some(part) = from {
        let (found, next) = select_part(files, parent, kind, part)?;
        out.extend(found);
        from = next;
    }
    Ok(out)
}

/// [`select`]'s join points from `from` on, a part at a time, and where the
/// next part starts: from the program or a file, a part is what one of
/// its trees holds (a large file's chunk: the walk acting on it parses it
/// once), `outer` counting files and `inner` trees of the file; from any
/// other join point, everything at once.
pub fn select_part(
    files: &[ParsedFile],
    parent: &JoinPoint,
    kind: &str,
    from: Part,
) -> Result<(Vec<JoinPoint>, Option<Part>), HostError> {
    let parent_spec = catalogue::kind(parent.kind)
        .ok_or_else(|| HostError::Failed(format!("unknown join point kind `{}`", parent.kind)))?;
    let spec = parent_spec
        .child(kind)
        .ok_or_else(|| unknown_kind(parent_spec, kind))?;
    let mut out = Vec::new();
    let next = match parent.file {
        None if spec.name == "file" => {
            out.extend(
                files
                    .iter()
                    .enumerate()
                    .map(|(index, file)| file_handle(index, file)),
            );
            None
        }
        None => files.get(from.outer).and_then(|file| {
            let inner = collect_tree(file, from.outer, from.inner, spec.name, &mut out);
            let outer = from.outer + usize::from(inner.is_none());
            (outer < files.len()).then(|| Part {
                outer,
                inner: inner.unwrap_or(0),
            })
        }),
        Some(index) => {
            let file = files.get(index).ok_or_else(|| stale(parent))?;
            if parent.kind == "file" {
                collect_tree(file, index, from.inner, spec.name, &mut out)
                    .map(|inner| Part { outer: 0, inner })
            } else {
                let tree = tree_of(files, parent).ok_or_else(|| stale(parent))?;
                let scope = node(&tree, parent).ok_or_else(|| stale(parent))?;
                collect(file, index, scope, parent.kind, spec.name, &mut out);
                None
            }
        }
    };
    Ok((out, next))
}

/// Appends the join points of kind `kind` in tree `k` of file `file` (its
/// whole tree, or a large file's chunk `k`) to `out`; the next tree's
/// number, if there is one.
fn collect_tree(
    file: &ParsedFile,
    index: usize,
    k: usize,
    kind: &'static str,
    out: &mut Vec<JoinPoint>,
) -> Option<usize> {
    if let Some(tree) = file.tree(k) {
        collect(file, index, tree.root_node(), "file", kind, out);
    }
    (k + 1 < file.tree_count()).then_some(k + 1)
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
        "cond" => {
            for owner in owners(file, scope, scope_kind) {
                out.extend(condition_of(owner).map(|c| handle("cond", index, c)));
            }
        }
        "first_stmt" | "last_stmt" | "first_decl" | "last_decl" => {
            // A branch is its own body: the statement run, or a case's.
            let bodies: Vec<Node<'_>> = if scope_kind == "body" || scope_kind == "branch" {
                vec![scope]
            } else {
                owners(file, scope, scope_kind)
                    .into_iter()
                    .filter_map(body_of)
                    .collect()
            };
            for body in bodies {
                out.extend(role(body, kind).into_iter().map(|s| handle(kind, index, s)));
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
                Walk::for_kind(kind),
                |at| matches(file, kind, at),
                |n| out.push(handle(kind, index, n)),
            );
        }
    }
}

/// The condition of a loop, without its parentheses; none for `for (;;)`.
fn condition_of(owner: Node<'_>) -> Option<Node<'_>> {
    let mut condition = owner.child_by_field_name("condition")?;
    while condition.kind() == "parenthesized_expression" && condition.named_child_count() == 1 {
        condition = condition.named_child(0)?;
    }
    Some(condition)
}

/// The nodes owning bodies and parameters reached from `scope`: the
/// function or loop itself, or the understood functions in a file.
fn owners<'t>(file: &'t ParsedFile, scope: Node<'t>, scope_kind: &str) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    match scope_kind {
        "function" | "loop" => found.push(scope),
        _ => descendants(
            file,
            scope,
            Walk::Statements,
            |at| at.node.kind() == "function_definition" && function_name(file, at.node).is_some(),
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

/// The statements directly in a body: the items of a block or of a `case`
/// label, or the single statement of a brace-less body.
pub fn statements(body: Node<'_>) -> Vec<Node<'_>> {
    items(body)
        .into_iter()
        .filter(|s| is_statement_kind(s.kind()) || is_declaration(*s))
        .collect()
}

fn is_declaration(node: Node<'_>) -> bool {
    matches!(node.kind(), "declaration" | "type_definition")
}

/// The statements of a body playing `role` (first_stmt, last_stmt,
/// first_decl, last_decl): one, or none, but for a first_stmt inside
/// conditional groups (see [`first_statements`]).
fn role<'t>(body: Node<'t>, role: &str) -> Vec<Node<'t>> {
    let stmts = statements(body);
    let mut decls = stmts.iter().filter(|s| s.kind() == "declaration");
    let found = match role {
        "first_stmt" => return first_statements(&items(body)),
        "last_stmt" => stmts.last(),
        "first_decl" => decls.next(),
        _ => decls.next_back(),
    };
    found.copied().into_iter().collect()
}

/// The items of a body: a block's or a `case` label's named children but
/// comments (and the label's value), or the single statement of a
/// brace-less body.
fn items(body: Node<'_>) -> Vec<Node<'_>> {
    if !matches!(body.kind(), "compound_statement" | "case_statement") {
        return vec![body];
    }
    let value = body.child_by_field_name("value");
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter(|s| s.kind() != "comment" && Some(*s) != value)
        .collect()
}

/// What runs first among `items`, after their leading declarations: the
/// first statement, or, when a conditional group comes first
/// (`#if A` `return 1;` `#else` `return 0;` `#endif`), the group itself
/// (code before it runs first whichever branch is compiled). When a
/// branch of the group opens with declarations, code before the group
/// would precede them (C89 wants declarations first): with an `#else`,
/// and a first statement in every branch, those are what runs first
/// (one on every path); else, when no branch holds a `return` or `goto`,
/// what follows the group (control always gets there); otherwise it is
/// still the group, where placement refuses with a reason rather than
/// leave the function silently alone.
/// Groups and directives holding only declarations count as declarations.
fn first_statements<'t>(items: &[Node<'t>]) -> Vec<Node<'t>> {
    for &item in items {
        if is_statement_kind(item.kind()) {
            return vec![item];
        }
        if !is_conditional_group(item) || declares_only(item) {
            continue;
        }
        let (branches, has_else) = conditional_branches(item);
        let opens_with_declaration = branches
            .iter()
            .any(|b| b.first().is_some_and(|n| is_declaration_item(*n)));
        if !opens_with_declaration {
            return vec![item];
        }
        if has_else {
            let firsts: Vec<Vec<Node<'t>>> = branches.iter().map(|b| first_statements(b)).collect();
            if firsts.iter().all(|f| !f.is_empty()) {
                return firsts.concat();
            }
        }
        // Control that always passes the group reaches what follows it.
        if !returns_or_jumps(item) {
            continue;
        }
        return vec![item];
    }
    Vec::new()
}

/// Does `node` hold a `return` or a `goto`, so that control may not pass it?
fn returns_or_jumps(node: Node<'_>) -> bool {
    if matches!(node.kind(), "return_statement" | "goto_statement") {
        return true;
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor).any(returns_or_jumps)
}

/// Does `item` (a block item) hold declarations and directives only, in
/// every branch of a conditional group?
fn declares_only(item: Node<'_>) -> bool {
    if is_conditional_group(item) {
        return conditional_branches(item)
            .0
            .iter()
            .all(|b| b.iter().all(|n| declares_only(*n)));
    }
    is_declaration_item(item) || item.kind().starts_with("preproc_")
}

/// Whether the node `at` stands on is a join point of the code kind `kind`.
fn matches(file: &ParsedFile, kind: &str, at: &Ancestry<'_>) -> bool {
    let (n, field) = (at.node, at.field);
    let k = n.kind();
    let parent_kind = || at.parent().map_or("", |p| p.kind());
    match kind {
        "function" => k == "function_definition" && function_name(file, n).is_some(),
        "stmt" => {
            (is_statement_kind(k) && !(k == "compound_statement" && parent_kind() == "function_definition"))
                || (is_declaration(n) && at.code_parent_kind() == "compound_statement")
        }
        "decl" => k == "declaration" && parent_kind() != "function_definition",
        "vardecl" => {
            field == Some("declarator")
                && parent_kind() == "declaration"
                && at.grandparent().is_none_or(|g| g.kind() != "function_definition")
                && declarator_shape(n) != Shape::Function
                && declarator_name(n).is_some()
        }
        "var" => is_var_use(n, at.parent(), field),
        "assignment" => k == "assignment_expression",
        "call" => k == "call_expression",
        "arg" => n.is_named() && k != "comment" && parent_kind() == "argument_list",
        "return" => k == "return_statement",
        "loop" => is_loop_kind(k),
        "if" => k == "if_statement",
        "switch" => k == "switch_statement",
        "branch" => branch_outcome(n, at.parent(), field).is_some(),
        "expression" => is_expression_kind(k),
        "binaryOp" => k == "binary_expression",
        "unaryOp" => matches!(k, "unary_expression" | "pointer_expression" | "update_expression"),
        "arrayAccess" => k == "subscript_expression",
        "memberAccess" => k == "field_expression",
        _ => false,
    }
}

/// The outcome a branch stands for (`then`, `else`, `case`, `default`),
/// given the node, its parent and its field there; none when the node is
/// not a branch.
pub fn branch_outcome(n: Node<'_>, parent: Option<Node<'_>>, field: Option<&str>) -> Option<&'static str> {
    if n.kind() == "case_statement" {
        return Some(if n.child_by_field_name("value").is_some() {
            "case"
        } else {
            "default"
        });
    }
    match parent.map(|p| p.kind()) {
        Some("if_statement") if field == Some("consequence") => Some("then"),
        Some("else_clause") if n.is_named() && n.kind() != "comment" => Some("else"),
        _ => None,
    }
}

/// What the traversal never looks inside: preprocessor directives (their
/// names and conditions are not code), attributes, type definitions and
/// literals. Conditional groups are entered (their branches hold code).
static OPAQUE: LazyLock<KindSet> = LazyLock::new(|| {
    KindSet::new(
        &[
            "preproc_def",
            "preproc_function_def",
            "preproc_call",
            "preproc_include",
            "preproc_defined",
            "attribute_specifier",
            "attribute_declaration",
            "ms_declspec_modifier",
            "struct_specifier",
            "union_specifier",
            "enum_specifier",
            "type_descriptor",
            "type_definition",
            "macro_type_specifier",
            "string_literal",
            "char_literal",
            "comment",
        ],
        &[],
    )
});

static DECLARATION: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["declaration"], &[]));
static FUNCTION: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["function_definition"], &[]));
static CONDITION_OWNER: LazyLock<KindSet> =
    LazyLock::new(|| KindSet::new(&["preproc_if", "preproc_elif"], &[]));

/// How much of a tree a traversal looks at: kinds that stand only where a
/// declaration or a statement may need no look into the expressions (or
/// simple statements) without braces that are most of a function's nodes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// Everything that is code.
    Code,
    /// What may hold a declaration: expressions are left out unless they
    /// hold a block (see [`holds_no_block`]).
    Declarations,
    /// What may hold a statement or a function definition: declarations
    /// and simple statements without a block are left out too (see
    /// [`holds_no_statement`]).
    Statements,
}

impl Walk {
    /// The walk that finds every join point of code kind `kind`.
    fn for_kind(kind: &str) -> Walk {
        match kind {
            "decl" | "vardecl" => Walk::Declarations,
            "function" | "stmt" | "return" | "loop" | "if" | "switch" | "branch" => Walk::Statements,
            _ => Walk::Code,
        }
    }

    /// Whether a walk of this kind leaves out what is under `node`.
    fn prunes(self, file: &ParsedFile, node: Node<'_>) -> bool {
        match self {
            Walk::Code => false,
            Walk::Declarations => holds_no_block(node, file.braces()),
            Walk::Statements => holds_no_statement(node, file.braces()),
        }
    }
}

/// Whether the traversal looks inside the node `at` stands on (see
/// `OPAQUE`): never inside a function it did not understand, nor into the
/// condition of an `#if`, nor, when walking statements, into an expression
/// that cannot hold one.
fn enters(file: &ParsedFile, walk: Walk, at: &Ancestry<'_>) -> bool {
    let n = at.node;
    !(OPAQUE.contains(n)
        || FUNCTION.contains(n) && !understood(file, n)
        || at.field == Some("condition") && CONDITION_OWNER.contains(n)
        || walk.prunes(file, n))
}

/// Whether the node `at` stands on and everything in it are left out: what
/// was not understood (errors, missing and empty nodes, declarations with
/// any of these) and statements outside functions, which tree-sitter-c
/// accepts only when it misreads a macro use at file scope.
fn skipped(file: &ParsedFile, at: &Ancestry<'_>) -> bool {
    let n = at.node;
    n.is_error()
        || n.is_missing()
        || n.byte_range().is_empty()
        || DECLARATION.contains(n) && !understood(file, n)
        || is_statement(n) && at.code_parent_kind() == "translation_unit"
}

/// A node reached by a traversal, with its field and its ancestors, which
/// the traversal carries itself because tree-sitter's `parent()` is slow
/// (see `ancestors`).
struct Ancestry<'t> {
    node: Node<'t>,
    field: Option<&'t str>,
    /// From the root down to the node's parent.
    above: Vec<Node<'t>>,
}

impl<'t> Ancestry<'t> {
    /// Standing on `scope`, a node under `root`.
    fn of(root: Node<'t>, scope: Node<'t>) -> Self {
        Ancestry {
            node: scope,
            field: None,
            above: ancestors(root, scope),
        }
    }

    fn parent(&self) -> Option<Node<'t>> {
        self.above.last().copied()
    }

    fn grandparent(&self) -> Option<Node<'t>> {
        self.above.iter().rev().nth(1).copied()
    }

    /// The kind of the nearest ancestor that is not a preprocessor node (a
    /// conditional group does not change where its items stand), or "" at
    /// the root.
    fn code_parent_kind(&self) -> &'t str {
        self.above
            .iter()
            .rev()
            .find(|p| !PREPROCESSOR.contains(**p))
            .map_or("", |p| p.kind())
    }
}

/// Visits the strict descendants of `scope` in source order (one
/// traversal), calling `found` for each one `wanted` accepts.
fn descendants<'t>(
    file: &'t ParsedFile,
    scope: Node<'t>,
    walk: Walk,
    mut wanted: impl FnMut(&Ancestry<'t>) -> bool,
    mut found: impl FnMut(Node<'t>),
) {
    let mut at = Ancestry::of(root_of(scope), scope);
    let mut cursor = scope.walk();
    let depth = at.above.len();
    if !cursor.goto_first_child() {
        return;
    }
    at.above.push(scope);
    loop {
        at.node = cursor.node();
        at.field = cursor.field_name();
        let whole = !skipped(file, &at);
        if whole && wanted(&at) {
            found(at.node);
        }
        if whole && enters(file, walk, &at) && cursor.goto_first_child() {
            at.above.push(at.node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            at.above.pop();
            if at.above.len() == depth || !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The number of join points of code kind `kind` under `scope`.
pub fn count(file: &ParsedFile, scope: Node<'_>, kind: &str) -> usize {
    let mut n = 0;
    descendants(
        file,
        scope,
        Walk::for_kind(kind),
        |at| matches(file, kind, at),
        |_| n += 1,
    );
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::sync::Arc;
    use weft_c::{FrontEnd, MacroTable};

    /// From the program and from a file, a large file's functions come a
    /// chunk at a time, the parts together being [`select`]'s, in order;
    /// from a function, everything comes at once.
    #[test]
    fn a_chunked_files_join_points_come_a_chunk_at_a_time() {
        let src: String = (0..3000)
            .map(|i| format!("int f{i}(int x)\n{{\n  return x + {i};\n}}\n"))
            .collect();
        let files = vec![FrontEnd::new(MacroTable::default()).parse(Path::new("big.c"), Arc::from(src))];
        let chunks = files[0].tree_count();
        assert!(chunks > 1, "a file over the chunk size is chunked");
        let root = JoinPoint {
            kind: "program",
            file: None,
            range: 0..0,
            node_kind: 0,
        };
        let file = file_handle(0, &files[0]);
        for parent in [&root, &file] {
            let all = select(&files, parent, "function").unwrap();
            assert_eq!(all.len(), 3000);
            let mut parts = Vec::new();
            let mut from = Some(Part::FIRST);
            while let Some(part) = from {
                let (found, next) = select_part(&files, parent, "function", part).unwrap();
                parts.push(found);
                from = next;
            }
            assert_eq!(parts.len(), chunks);
            assert!(parts.iter().all(|p| !p.is_empty() && p.len() < all.len()));
            assert_eq!(parts.concat(), all);
        }
        let (body, next) = select_part(
            &files,
            &select(&files, &root, "function").unwrap()[1],
            "body",
            Part::FIRST,
        )
        .unwrap();
        assert_eq!((body.len(), next), (1, None));
    }
}
