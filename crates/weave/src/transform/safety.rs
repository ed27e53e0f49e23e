//! When may an lvalue be written twice (`x op= e` → `x = x op (e)`) or
//! evaluated at a different moment? Only when evaluating it has no effect:
//! no calls, increments or assignments inside, nothing volatile, and every
//! name resolved to a variable of known type.

use tree_sitter::Node;

use super::context::PassContext;
use weft_c::sema::DeclKind;

/// `Ok` when `lvalue` can be evaluated twice without changing behaviour,
/// otherwise the reason it cannot.
pub fn duplicable_lvalue(ctx: &PassContext<'_>, lvalue: Node<'_>) -> Result<(), String> {
    match lvalue.kind() {
        "identifier"
        | "field_expression"
        | "subscript_expression"
        | "pointer_expression"
        | "parenthesized_expression" => pure(ctx, lvalue),
        other => Err(format!("left-hand side `{other}` is not a plain lvalue")),
    }
}

/// Whether evaluating `expr` (as a value or an lvalue) has no side effect.
fn pure(ctx: &PassContext<'_>, expr: Node<'_>) -> Result<(), String> {
    match expr.kind() {
        "identifier" => {
            let name = ctx.view_text(expr);
            let decl = ctx
                .sema
                .declaration_of(ctx.index, expr)
                .ok_or_else(|| format!("`{name}` has no visible declaration"))?;
            if !matches!(
                decl.kind,
                DeclKind::Variable | DeclKind::Parameter | DeclKind::EnumConstant
            ) {
                return Err(format!("`{name}` is not a variable"));
            }
            if decl.ty.is_unknown() {
                return Err(format!("type of `{name}` is unknown"));
            }
            if decl.ty.touches_volatile() {
                return Err(format!("`{name}` is volatile"));
            }
            Ok(())
        }
        "number_literal" | "char_literal" | "true" | "false" | "sizeof_expression" | "comment" => Ok(()),
        "field_expression" => {
            pure(ctx, child(expr, "argument")?)?;
            let member = ctx.sema.type_of_expr(ctx.index, expr);
            if member.is_unknown() {
                return Err("member type is unknown".into());
            }
            if member.touches_volatile() {
                return Err("member is volatile".into());
            }
            Ok(())
        }
        "subscript_expression" => {
            pure(ctx, child(expr, "argument")?)?;
            pure(ctx, child(expr, "index")?)
        }
        "pointer_expression" | "unary_expression" | "cast_expression" => {
            if expr.kind() == "pointer_expression"
                && ctx.sema.type_of_expr(ctx.index, expr).touches_volatile()
            {
                return Err("dereferences a volatile object".into());
            }
            // A cast's `type` child is a type, not an evaluation.
            pure(ctx, child(expr, "argument").or_else(|_| child(expr, "value"))?)
        }
        "binary_expression" => {
            pure(ctx, child(expr, "left")?)?;
            pure(ctx, child(expr, "right")?)
        }
        "parenthesized_expression" => {
            let mut cursor = expr.walk();
            let inner: Vec<Node<'_>> = expr.named_children(&mut cursor).collect();
            inner.into_iter().try_for_each(|n| pure(ctx, n))
        }
        "call_expression" => Err("left-hand side calls a function".into()),
        "update_expression" | "assignment_expression" => Err("left-hand side has side effects".into()),
        other => Err(format!("left-hand side contains `{other}`")),
    }
}

fn child<'t>(node: Node<'t>, field: &str) -> Result<Node<'t>, String> {
    node.child_by_field_name(field)
        .ok_or_else(|| format!("incomplete `{}`", node.kind()))
}

/// Whether `node` (or anything inside it) is an assignment or increment:
/// rewriting around it would produce edits nested in each other.
pub fn contains_assignment(node: Node<'_>) -> bool {
    if matches!(node.kind(), "assignment_expression" | "update_expression") {
        return true;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).any(contains_assignment)
}
