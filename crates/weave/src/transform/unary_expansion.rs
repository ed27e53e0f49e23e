//! UnaryExpansion: `i++;`, `--i;` standing alone as statements (or as a
//! whole `for` update clause, whose value is discarded too) become
//! `i = i + 1;`, `i = i - 1;`. Increments inside larger expressions are
//! never touched: their value or sequencing matters there.
//!
//! `x = x + 1` evaluates `x` twice, so the same side-effect-free,
//! non-volatile rule as AssignExpansion applies. For pointers the result
//! is the same pointer arithmetic; for `_Bool` the same conversion.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::context::PassContext;
use super::safety::duplicable_lvalue;
use super::{Needles, nodes_holding};
use weft_c::syntax::KindSet;

static UPDATES: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["update_expression"], &[]));

pub fn run(ctx: &mut PassContext<'_>) {
    let file = ctx.file;
    let needles = Needles::of(&file.view, &["++", "--"]);
    for tree in file.trees() {
        for update in nodes_holding(tree.root_node(), &UPDATES, &needles) {
            if value_is_discarded(update) {
                expand(ctx, update);
            }
        }
    }
}

/// Whether the increment is a whole expression statement or a whole `for`
/// update clause, possibly in parentheses.
fn value_is_discarded(update: Node<'_>) -> bool {
    let mut node = update;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "parenthesized_expression" => node = parent,
            "expression_statement" => return true,
            "for_statement" => {
                return parent
                    .child_by_field_name("update")
                    .is_some_and(|u| u.id() == node.id());
            }
            _ => return false,
        }
    }
    false
}

fn expand(ctx: &mut PassContext<'_>, update: Node<'_>) {
    let (Some(operand), Some(op)) = (
        update.child_by_field_name("argument"),
        update.child_by_field_name("operator"),
    ) else {
        return;
    };
    let range = match ctx.editable(update) {
        Ok(range) => range,
        Err(reason) => return ctx.skip(update, reason),
    };
    if let Err(reason) = duplicable_lvalue(ctx, operand) {
        return ctx.skip(update, reason);
    }
    let Some(x) = ctx.text(operand) else {
        return ctx.skip(update, "produced by a macro expansion");
    };
    let sign = if op.kind() == "++" { '+' } else { '-' };
    ctx.replace(range, format!("{x} = {x} {sign} 1"));
}
