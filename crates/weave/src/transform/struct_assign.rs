//! StructAssignDecomposition (report §3.4): `s->m = v;` becomes
//! `{ T tmp; tmp = v; s->m = tmp; }` where `T` is the member's declared
//! type, spelled as in the struct definition.
//!
//! Assigning `v` to a temporary of the member's own type and then the
//! temporary to the member performs the same conversion (for bit-fields,
//! the same truncation of a value of the declared type). `v` now runs
//! before `s->m` is evaluated, so the member access must be side-effect
//! free. A right-hand side that is already a plain name is left as is.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::Needles;
use super::context::PassContext;
use super::safety::duplicable_lvalue;
use super::temporary::block;
use weft_c::syntax::KindSet;

static EXPRESSION_STATEMENTS: LazyLock<KindSet> =
    LazyLock::new(|| KindSet::new(&["expression_statement"], &[]));

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    let tmp = ctx.fresh_name("weft_member");
    // Only statements holding an `=` and a member access are rewritten.
    let equals = Needles::of(&file.view, &["="]);
    let members = Needles::of(&file.view, &["->", "."]);
    for tree in file.trees() {
        let statements = ctx.statement_nodes(tree.root_node(), &EXPRESSION_STATEMENTS, |n| {
            equals.absent_from(n) || members.absent_from(n)
        });
        for statement in statements {
            decompose(ctx, statement, &tmp);
        }
    }
}

fn decompose(ctx: &mut PassContext<'_>, statement: Node<'_>, tmp: &str) {
    let Some(assign) = statement
        .named_child(0)
        .filter(|a| a.kind() == "assignment_expression")
    else {
        return;
    };
    let (Some(op), Some(left), Some(right)) = (
        assign.child_by_field_name("operator"),
        assign.child_by_field_name("left"),
        assign.child_by_field_name("right"),
    ) else {
        return;
    };
    if op.kind() != "=" || left.kind() != "field_expression" || right.kind() == "identifier" {
        return;
    }
    let range = match ctx.editable(statement) {
        Ok(range) => range,
        Err(reason) => return ctx.skip(statement, reason),
    };
    if let Err(reason) = duplicable_lvalue(ctx, left) {
        return ctx.skip(statement, reason);
    }
    let member = left
        .child_by_field_name("field")
        .and_then(|f| ctx.sema.declaration_of(ctx.index, f));
    let Some(member) = member else {
        return ctx.skip(statement, "member declaration not found");
    };
    if member.ty.is_unknown() || member.ty.is_array() {
        return ctx.skip(
            statement,
            format!("member `{}` has no assignable known type", member.name),
        );
    }
    let Some(spelling) = member.spelling.clone() else {
        return ctx.skip(
            statement,
            format!("type of member `{}` cannot be spelled", member.name),
        );
    };
    let (Some(lhs), Some(rhs)) = (ctx.text(left), ctx.text(right)) else {
        return ctx.skip(statement, "produced by a macro expansion");
    };
    let rest = format!("{lhs} = {tmp};");
    ctx.replace(range, block(&spelling, tmp, rhs, &rest));
}
