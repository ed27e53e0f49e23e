//! Attribute values of join points, computed from the tree on demand.

use tree_sitter::Node;

use super::assigned::assigned_locals;
use super::callee::recursive_pure;
use super::catalogue::{self, AttributeSpec, KindSpec};
use super::params::{function_of, param_identifier, parameters};
use super::select::{branch_outcome, count, stale, statements};
use super::tree::{self, file_handle, handle, is_expression_kind, is_loop_kind, line_column, node, tree_of};
use super::typed::{
    Scope, declaration_join_point, param_declaration, scope_of, typed_attribute, vardecl_declaration,
};
use super::vars::{in_loop_header, reference};
use super::written::written_first;
use super::{JoinPoint, Value, extent, loops};
use weft_c::ParsedFile;
use weft_c::sema::Semantics;
use weft_c::syntax::declarator_name;
use weft_lang::engine::HostError;

/// The value of attribute `name` (canonical name or alias) of `jp`.
///
/// `sema` must describe `files` as they are now. Type attributes of
/// `param`, `vardecl` and `var` come from it; without it (see
/// [`super::uses_semantics`] for when it is needed) they answer "unknown".
pub fn attribute(
    files: &[ParsedFile],
    sema: Option<&Semantics>,
    jp: &JoinPoint,
    name: &str,
) -> Result<Value, HostError> {
    let spec = catalogue::kind(jp.kind)
        .ok_or_else(|| HostError::Failed(format!("unknown join point kind `{}`", jp.kind)))?;
    let attr = spec
        .attribute(name)
        .ok_or_else(|| unknown_attribute(spec, name))?;
    let Some(index) = jp.file else {
        return program_attribute(files, attr);
    };
    let file = files.get(index).ok_or_else(|| stale(jp))?;
    let tree = tree_of(files, jp).ok_or_else(|| stale(jp))?;
    let n = node(&tree, jp).ok_or_else(|| stale(jp))?;
    let own = match jp.kind {
        "param" | "vardecl" | "var" => declared_attribute(files, sema, index, jp.kind, n, attr.name),
        "loop" if loops::is_state_attribute(attr.name) => loops::state_attribute(file, index, n, attr.name),
        "call" if attr.name == "noreturn" => Some(Value::Bool(callee_noreturn(file, sema, index, n))),
        _ if attr.name == "assigned_locals" => Some(assigned_locals(file, index, n)),
        _ => kind_attribute(file, jp.kind, n, attr.name),
    };
    own.or_else(|| common_attribute(file, index, jp, n, attr.name))
        .ok_or_else(|| {
            HostError::Failed(format!(
                "attribute `{}` of `{}` has no implementation",
                attr.name, jp.kind
            ))
        })
}

/// Whether call `n` calls a function that does not return (a standard one
/// by name, or one declared noreturn: [`Semantics::is_noreturn`]). A callee
/// that is not a plain name (a function pointer) never is.
fn callee_noreturn(file: &ParsedFile, sema: Option<&Semantics>, index: usize, n: Node<'_>) -> bool {
    let Some(callee) = n
        .child_by_field_name("function")
        .filter(|f| f.kind() == "identifier")
    else {
        return false;
    };
    sema.is_some_and(|s| s.is_noreturn(index, n.start_byte(), file.node_text(callee)))
}

fn unknown_attribute(spec: &'static KindSpec, name: &str) -> HostError {
    let candidates = spec
        .all_attributes()
        .flat_map(|a| std::iter::once(a.name).chain(a.aliases.iter().copied()));
    HostError::UnknownAttribute {
        kind: spec.name.to_string(),
        name: name.to_string(),
        suggestion: catalogue::suggest(candidates, name).map(String::from),
    }
}

fn program_attribute(files: &[ParsedFile], attr: &AttributeSpec) -> Result<Value, HostError> {
    Ok(match attr.name {
        "kind" => Value::Str("program".to_string()),
        "num_files" => Value::Int(files.len() as i64),
        "line" | "column" => Value::Int(0),
        "code" | "file" => Value::Str(String::new()),
        "parent" => Value::Null,
        other => {
            return Err(HostError::Failed(format!(
                "attribute `{other}` of `program` has no implementation"
            )));
        }
    })
}

fn common_attribute(
    file: &ParsedFile,
    index: usize,
    jp: &JoinPoint,
    n: Node<'_>,
    name: &str,
) -> Option<Value> {
    Some(match name {
        "kind" => Value::Str(jp.kind.to_string()),
        "line" => Value::Int(line_column(file, n.start_byte()).0 as i64),
        "column" => Value::Int(line_column(file, n.start_byte()).1 as i64),
        // The file join point's node may be its first chunk's root: its
        // range is the handle's.
        "code" => Value::Str(code_in(file, jp.range.clone()).to_string()),
        "file" => Value::Str(file.path.display().to_string()),
        "parent" => parent(file, index, n),
        _ => return None,
    })
}

/// A node's text: the original text when it maps back, else the view.
fn code<'a>(file: &'a ParsedFile, n: Node<'_>) -> &'a str {
    code_in(file, n.byte_range())
}

/// The original text of view range `view`, or the view's text there when
/// it does not map back.
fn code_in(file: &ParsedFile, view: std::ops::Range<usize>) -> &str {
    file.original_range(view.clone())
        .and_then(|r| file.text.get(r))
        .unwrap_or_else(|| &file.view[view])
}

/// The nearest enclosing join point of `n`, as its most specific kind.
fn parent(file: &ParsedFile, index: usize, n: Node<'_>) -> Value {
    let mut p = n.parent();
    while let Some(candidate) = p {
        if let Some(kind) = classify(file, candidate) {
            // A root may be a chunk's: the file's handle is the file's.
            if kind == "file" {
                return Value::JoinPoint(file_handle(index, file));
            }
            return Value::JoinPoint(handle(kind, index, candidate));
        }
        p = candidate.parent();
    }
    Value::JoinPoint(JoinPoint::program())
}

/// The most specific kind a node is a join point of, if any.
fn classify(file: &ParsedFile, n: Node<'_>) -> Option<&'static str> {
    let k = n.kind();
    let parent_kind = n.parent().map_or("", |p| p.kind());
    Some(match k {
        "translation_unit" => "file",
        "function_definition" => "function",
        "parameter_declaration" if in_definition(file, n) => "param",
        "compound_statement" if parent_kind == "function_definition" || is_loop_kind(parent_kind) => "body",
        _ if is_loop_kind(k) => "loop",
        "if_statement" => "if",
        "switch_statement" => "switch",
        "return_statement" => "return",
        "declaration" if parent_kind != "function_definition" => "decl",
        _ if super::tree::is_statement_kind(k) => "stmt",
        "assignment_expression" => "assignment",
        "call_expression" => "call",
        "binary_expression" => "binaryOp",
        "unary_expression" | "pointer_expression" | "update_expression" => "unaryOp",
        "subscript_expression" => "arrayAccess",
        "field_expression" => "memberAccess",
        _ if parent_kind == "argument_list" && n.is_named() => "arg",
        _ if is_expression_kind(k) => "expression",
        _ if parent_kind == "declaration" && tree::field_in_parent(n) == Some("declarator") => "vardecl",
        _ => return None,
    })
}

/// Whether a parameter declaration is a parameter of a function definition
/// (not of a prototype or a function pointer type).
fn in_definition(file: &ParsedFile, param: Node<'_>) -> bool {
    std::iter::successors(param.parent(), |p| p.parent())
        .find(|p| p.kind() == "function_definition")
        .is_some_and(|f| parameters(file, f).iter().any(|p| p.id() == param.id()))
}

/// Kind-specific attributes; `None` when `name` is not one of `kind`'s own.
fn kind_attribute(file: &ParsedFile, kind: &str, n: Node<'_>, name: &str) -> Option<Value> {
    statement_attribute(file, kind, n, name).or_else(|| expression_attribute(file, kind, n, name))
}

/// Attributes of the kinds that stand for files, functions, bodies and
/// statements.
fn statement_attribute(file: &ParsedFile, kind: &str, n: Node<'_>, name: &str) -> Option<Value> {
    let text = |n: Node<'_>| Value::Str(code(file, n).to_string());
    match kind {
        "file" => match name {
            "name" => Some(Value::Str(
                file.path
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            )),
            _ => None,
        },
        "function" => function_attribute(file, n, name),
        "body" => match name {
            "has_braces" => Some(Value::Bool(n.kind() == "compound_statement")),
            "num_stmts" => Some(Value::Int(statements(n).len() as i64)),
            _ => None,
        },
        "stmt" | "first_stmt" | "last_stmt" => match name {
            "is_decl" => Some(Value::Bool(matches!(n.kind(), "declaration" | "type_definition"))),
            "conditional" => Some(Value::Bool(in_conditional(file, n))),
            _ => None,
        },
        "decl" | "first_decl" | "last_decl" => match name {
            "num_declarators" => {
                let mut cursor = n.walk();
                let count = n.children_by_field_name("declarator", &mut cursor).count();
                Some(Value::Int(count as i64))
            }
            _ => None,
        },
        "return" => {
            let value = n.named_children(&mut n.walk()).find(|c| c.kind() != "comment");
            match name {
                "has_value" => Some(Value::Bool(value.is_some())),
                "value" => Some(value.map_or(Value::Null, text)),
                _ => None,
            }
        }
        "loop" => loops::attribute(file, n, name),
        "branch" if name == "outcome" => {
            let parent = n.parent();
            let field = parent.and_then(|_| tree::field_in_parent(n));
            branch_outcome(n, parent, field).map(|o| Value::Str(o.to_string()))
        }
        "if" | "switch" => match name {
            "condition" => Some(condition(file, n)),
            "has_else" => Some(Value::Bool(n.child_by_field_name("alternative").is_some())),
            _ => None,
        },
        _ => None,
    }
}

/// Attributes of the kinds that stand for expressions.
fn expression_attribute(file: &ParsedFile, kind: &str, n: Node<'_>, name: &str) -> Option<Value> {
    let text = |n: Node<'_>| Value::Str(code(file, n).to_string());
    let field_text = |field: &str| n.child_by_field_name(field).map_or(Value::Null, text);
    match kind {
        "assignment" => match name {
            "operator" => n
                .child_by_field_name("operator")
                .map(|o| Value::Str(o.kind().to_string())),
            "lhs" => Some(field_text("left")),
            "rhs" => Some(field_text("right")),
            "is_compound" => Some(Value::Bool(
                n.child_by_field_name("operator").is_some_and(|o| o.kind() != "="),
            )),
            _ => None,
        },
        "call" => match name {
            "name" => Some(field_text("function")),
            "num_args" => {
                let args = n.child_by_field_name("arguments")?;
                let mut cursor = args.walk();
                let count = args
                    .named_children(&mut cursor)
                    .filter(|a| a.kind() != "comment")
                    .count();
                Some(Value::Int(count as i64))
            }
            "is_stmt_call" => Some(Value::Bool(
                n.parent().is_some_and(|p| p.kind() == "expression_statement"),
            )),
            _ => None,
        },
        "arg" => match name {
            "index" => {
                let list = n.parent()?;
                let mut cursor = list.walk();
                let position = list
                    .named_children(&mut cursor)
                    .filter(|a| a.kind() != "comment")
                    .position(|a| a.id() == n.id())?;
                Some(Value::Int(position as i64))
            }
            _ => None,
        },
        "binaryOp" => match name {
            "operator" => n
                .child_by_field_name("operator")
                .map(|o| Value::Str(o.kind().to_string())),
            "left" => Some(field_text("left")),
            "right" => Some(field_text("right")),
            _ => None,
        },
        "unaryOp" => {
            let operator = n.child_by_field_name("operator")?;
            let operand = n.child_by_field_name("argument")?;
            match name {
                "operator" => Some(Value::Str(operator.kind().to_string())),
                "operand" => Some(text(operand)),
                "is_prefix" => Some(Value::Bool(operator.start_byte() < operand.start_byte())),
                _ => None,
            }
        }
        "arrayAccess" => match name {
            "name" => Some(
                n.child_by_field_name("argument")
                    .filter(|a| a.kind() == "identifier")
                    .map_or(Value::Null, text),
            ),
            "array" => Some(field_text("argument")),
            "subscript" => Some(field_text("index")),
            _ => None,
        },
        "memberAccess" => match name {
            "name" => Some(field_text("field")),
            "base" => Some(field_text("argument")),
            "is_arrow" => Some(Value::Bool(
                n.child_by_field_name("operator")
                    .is_some_and(|o| o.kind() == "->"),
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The text of an if/switch condition without its parentheses.
fn condition(file: &ParsedFile, n: Node<'_>) -> Value {
    let Some(c) = n.child_by_field_name("condition") else {
        return Value::Null;
    };
    let inner = if c.kind() == "parenthesized_expression" {
        c.named_child(0).unwrap_or(c)
    } else {
        c
    };
    Value::Str(code(file, inner).to_string())
}

fn function_attribute(file: &ParsedFile, f: Node<'_>, name: &str) -> Option<Value> {
    Some(match name {
        "name" => Value::Str(tree::function_name(file, f).unwrap_or("").to_string()),
        "num_params" => Value::Int(parameters(file, f).len() as i64),
        "return_type" => {
            let base = f.child_by_field_name("type").map_or("int", |t| file.node_text(t));
            let mut stars = 0;
            let mut d = f.child_by_field_name("declarator");
            while let Some(decl) = d.filter(|d| d.kind() == "pointer_declarator") {
                stars += 1;
                d = decl.child_by_field_name("declarator");
            }
            let stars = "*".repeat(stars);
            Value::Str(if stars.is_empty() {
                base.to_string()
            } else {
                format!("{base} {stars}")
            })
        }
        "is_static" => {
            let mut cursor = f.walk();
            let is_static = f
                .children(&mut cursor)
                .any(|c| c.kind() == "storage_class_specifier" && file.node_text(c) == "static");
            Value::Bool(is_static)
        }
        "num_loops" => {
            let body = f.child_by_field_name("body");
            let n = body
                .filter(|_| tree::understood(file, f))
                .map_or(0, |b| count(file, b, "loop"));
            Value::Int(n as i64)
        }
        "recursive" => Value::Bool(calls_itself(file, f, name_of(file, f))),
        "pure" | "reads_only" => Value::Bool(
            tree::understood(file, f)
                && recursive_pure(file, f, name_of(file, f), name == "reads_only")
                    .is_some_and(|c| c.inputs.is_empty()),
        ),
        _ => return None,
    })
}

fn name_of<'t>(file: &'t ParsedFile, f: Node<'_>) -> &'t str {
    tree::function_name(file, f).unwrap_or("")
}

/// Whether the body of `f` calls `name` (its own name).
fn calls_itself(file: &ParsedFile, f: Node<'_>, name: &str) -> bool {
    let mut stack: Vec<Node> = f.child_by_field_name("body").into_iter().collect();
    while let Some(n) = stack.pop() {
        if n.kind() == "call_expression"
            && n.child_by_field_name("function")
                .is_some_and(|c| file.node_text(c) == name)
        {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    false
}

/// Attributes of `param`, `vardecl` and `var`: names from the syntax, types
/// and declarations from `sema`.
fn declared_attribute(
    files: &[ParsedFile],
    sema: Option<&Semantics>,
    index: usize,
    kind: &str,
    n: Node<'_>,
    name: &str,
) -> Option<Value> {
    let file = files.get(index)?;
    let text = |n: Option<Node<'_>>| Value::Str(n.map_or("", |n| file.node_text(n)).to_string());
    match (kind, name) {
        (_, "written_first") => return Some(pointee_written_first(file, kind, n)),
        ("param", "name") => return Some(text(param_identifier(n))),
        ("param", "length") => return Some(param_length(file, n)),
        ("vardecl", "length") => {
            let length = sema.and_then(|s| extent::named_array(file, s, index, n));
            return Some(length.map_or(Value::Null, Value::Str));
        }
        ("vardecl", "name") => return Some(text(declarator_name(n))),
        ("var", "name") => return Some(text(Some(n))),
        ("var" | "vardecl", "conditional") => return Some(Value::Bool(in_conditional(file, n))),
        ("vardecl", _) => {
            if let Some(value) = vardecl_attribute(file, n, name) {
                return Some(value);
            }
        }
        ("var", "reference") => return Some(Value::Str(reference(n).as_str().to_string())),
        ("var", "in_loop_header") => return Some(Value::Bool(in_loop_header(n))),
        _ => {}
    }
    let (decl, scope) = match kind {
        "param" => (
            sema.and_then(|s| param_declaration(s, file, index, n)),
            Scope::Param,
        ),
        "vardecl" => {
            let in_function =
                std::iter::successors(n.parent(), |p| p.parent()).any(|p| p.kind() == "function_definition");
            let scope = if in_function { Scope::Local } else { Scope::Global };
            (sema.and_then(|s| vardecl_declaration(s, index, n)), scope)
        }
        _ => {
            let decl = sema.and_then(|s| s.declaration_of(index, n));
            (decl, scope_of(decl))
        }
    };
    if name == "declaration" {
        return Some(decl.map_or(Value::Null, |d| declaration_join_point(files, d)));
    }
    typed_attribute(sema, decl, scope, name)
}

/// What the function holding declared object `n` (a `param`, `vardecl` or
/// `var`) writes through it before reading ([`written_first`]); empty at
/// file scope.
fn pointee_written_first(file: &ParsedFile, kind: &str, n: Node<'_>) -> Value {
    let (name, own) = match kind {
        "param" => (param_identifier(n), None),
        "vardecl" => (declarator_name(n), Some(n)),
        _ => (Some(n), None),
    };
    match (name, function_of(n)) {
        (Some(name), Some(function)) => written_first(file, function, own, file.node_text(name)),
        _ => Value::List(Vec::new()),
    }
}

/// The loop bound of the elements a pointer parameter points to
/// ([`extent::loop_bound`]), or null.
fn param_length(file: &ParsedFile, param: Node<'_>) -> Value {
    let bound = param_identifier(param)
        .zip(function_of(param))
        .and_then(|(name, function)| extent::loop_bound(file, function, file.node_text(name)));
    bound.map_or(Value::Null, Value::Str)
}

/// `vardecl` attributes read from the declarator itself.
fn vardecl_attribute(file: &ParsedFile, d: Node<'_>, name: &str) -> Option<Value> {
    let value = (d.kind() == "init_declarator")
        .then(|| d.child_by_field_name("value"))
        .flatten();
    Some(match name {
        "has_init" => Value::Bool(value.is_some()),
        "init" => value.map_or(Value::Null, |v| Value::Str(code(file, v).to_string())),
        _ => return None,
    })
}

/// Whether node `n` (a statement, a use, a declarator) starts inside a
/// preprocessor conditional opened in its function, or anywhere before it
/// in the file when it is at file scope: an `#if`, `#ifdef` or `#ifndef`
/// that no `#endif` has closed yet where `n` starts (read by the front
/// end's lexer, so a directive in a comment does not count).
fn in_conditional(file: &ParsedFile, n: Node<'_>) -> bool {
    let mut function = Some(n);
    while let Some(f) = function.filter(|f| f.kind() != "function_definition") {
        function = f.parent();
    }
    let range = |node: Node<'_>| file.original_range(node.byte_range());
    let from = match function {
        Some(f) => range(f).map(|r| r.start),
        None => Some(0),
    };
    let (Some(from), Some(to)) = (from, range(n)) else {
        return false;
    };
    weft_c::open_conditionals(&file.text[from..to.start]) > 0
}
