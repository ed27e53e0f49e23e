//! AssignExpansion: `x op= e` becomes `x = x op (e)`.
//!
//! The rewrite evaluates `x` twice, so it is made only when `x` is
//! side-effect free and not volatile (see [`super::safety`]). `e` is
//! parenthesised because `op` may bind tighter than operators inside it.
//! The usual arithmetic conversions are the same in both forms (C11
//! 6.5.16.2p3: `E1 op= E2` is `E1 = E1 op (E2)` with `E1` evaluated once),
//! so `c += 1` on a `char` keeps its meaning. Works anywhere an expression
//! may appear, including `for` headers.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::context::PassContext;
use super::safety::{contains_assignment, duplicable_lvalue};
use super::{Needles, nodes_holding};
use weft_c::syntax::KindSet;

static ASSIGNMENTS: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["assignment_expression"], &[]));

/// The compound assignment operators (C11 6.5.16): only assignments
/// written with one are expanded, so only text holding one is walked.
const COMPOUND_OPERATORS: &[&str] = &["*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="];

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    let needles = Needles::of(&file.view, COMPOUND_OPERATORS);
    for tree in file.trees() {
        for assign in nodes_holding(tree.root_node(), &ASSIGNMENTS, &needles) {
            expand(ctx, assign);
        }
    }
}

fn expand(ctx: &mut PassContext<'_>, assign: Node<'_>) {
    let Some(op) = assign.child_by_field_name("operator") else {
        return;
    };
    let Some(binary) = op.kind().strip_suffix('=').filter(|b| !b.is_empty()) else {
        return;
    };
    let (Some(left), Some(right)) = (
        assign.child_by_field_name("left"),
        assign.child_by_field_name("right"),
    ) else {
        return;
    };
    let range = match ctx.editable(assign) {
        Ok(range) => range,
        Err(reason) => return ctx.skip(assign, reason),
    };
    if let Err(reason) = duplicable_lvalue(ctx, left) {
        return ctx.skip(assign, reason);
    }
    if contains_assignment(right) {
        // The inner assignment is rewritten on its own; copying its text
        // here would nest two edits.
        return ctx.skip(assign, "right-hand side contains another assignment");
    }
    let (Some(lhs), Some(rhs)) = (ctx.text(left), ctx.text(right)) else {
        return ctx.skip(assign, "produced by a macro expansion");
    };
    ctx.replace(range, format!("{lhs} = {lhs} {binary} ({rhs})"));
}
