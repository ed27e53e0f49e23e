//! Can control run off the end of a statement? A small syntactic analysis
//! for NormalizeReturn, conservative in one direction: it answers "no"
//! only for shapes that certainly do not complete normally, and "yes"
//! (may fall through) for everything else.
//!
//! A statement does not fall through when it is
//! * `return`, `goto`, `break` or `continue`: control goes elsewhere (the
//!   loops and switches below account for the `break`s that leave them);
//! * a call statement `f (…);` of a function that does not return
//!   ([`weft_c::sema::Semantics::is_noreturn`]: `exit`, `abort`, `longjmp`,
//!   …, and functions declared noreturn);
//! * a block whose last statement does not, or a labelled statement whose
//!   statement does not;
//! * `if … else …` where neither branch does;
//! * an endless loop (`for (;;)`, `while (1)`, `do … while (1)`, a
//!   non-zero integer or `true` condition) with no `break` of its own;
//! * a `switch` with a `default` label among its cases and no `break` of
//!   its own, whose last case does not fall through;
//! * a conditional group `#if … #else … #endif` (or `#ifdef`, `#elif`)
//!   with an `#else` where no branch falls through (`#error` does not):
//!   whichever is compiled does not.

use std::sync::LazyLock;

use tree_sitter::Node;

use super::context::PassContext;
use weft_c::syntax::KindSet;

static BREAKS: LazyLock<KindSet> = LazyLock::new(|| KindSet::new(&["break_statement"], &[]));

/// Where the `break`s inside belong to instead of the statement around
/// them (a nested function definition's are its own): the search for a
/// statement's own `break`s does not go into these.
static BREAK_TARGETS: LazyLock<KindSet> = LazyLock::new(|| {
    KindSet::new(
        &[
            "for_statement",
            "while_statement",
            "do_statement",
            "switch_statement",
            "function_definition",
        ],
        &[],
    )
});

/// True when control may reach the end of `stmt`.
pub fn falls_through(ctx: &PassContext<'_>, stmt: Node<'_>) -> bool {
    let last_falls = |fields: &[&str]| last_statement(stmt, fields).is_none_or(|s| falls_through(ctx, s));
    match stmt.kind() {
        "return_statement" | "goto_statement" | "break_statement" | "continue_statement" => false,
        "expression_statement" => !calls_noreturn(ctx, stmt),
        "compound_statement" => last_falls(&[]),
        "labeled_statement" => last_falls(&["label"]),
        "if_statement" => {
            let otherwise = stmt.child_by_field_name("alternative");
            match (stmt.child_by_field_name("consequence"), otherwise) {
                (Some(then), Some(otherwise)) => falls_through(ctx, then) || falls_through(ctx, otherwise),
                _ => true,
            }
        }
        "else_clause" => last_falls(&[]),
        "for_statement" | "while_statement" | "do_statement" => !endless(ctx, stmt) || breaks_out(ctx, stmt),
        "switch_statement" => switch_falls_through(ctx, stmt),
        // Only one branch is compiled: it must be one of them (there is an
        // `#else`), and none may fall through.
        "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_elifdef" => {
            last_falls(&["condition", "name", "alternative"])
                || stmt
                    .child_by_field_name("alternative")
                    .is_none_or(|a| falls_through(ctx, a))
        }
        "preproc_else" => last_falls(&[]),
        // A branch that stops compilation is never the compiled one.
        "preproc_call" => stmt
            .child_by_field_name("directive")
            .is_none_or(|d| ctx.view_text(d).replace([' ', '\t'], "") != "#error"),
        _ => true,
    }
}

fn switch_falls_through(ctx: &PassContext<'_>, switch: Node<'_>) -> bool {
    let Some(body) = switch.child_by_field_name("body") else {
        return true;
    };
    let mut cursor = body.walk();
    let has_default = body
        .named_children(&mut cursor)
        .any(|c| c.kind() == "case_statement" && c.child_by_field_name("value").is_none());
    let last_case = last_statement(body, &[]).filter(|c| c.kind() == "case_statement");
    let last = last_case.and_then(|c| last_statement(c, &["value"]));
    !has_default || breaks_out(ctx, switch) || last.is_none_or(|s| falls_through(ctx, s))
}

/// The last named child of `node` that is a statement: not a comment, and
/// not the child in one of `fields` (a label, a case value, a condition).
fn last_statement<'t>(node: Node<'t>, fields: &[&str]) -> Option<Node<'t>> {
    let other: Vec<usize> = fields
        .iter()
        .filter_map(|f| node.child_by_field_name(f))
        .map(|n| n.id())
        .collect();
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment" && !other.contains(&c.id()))
        .last()
}

/// `f (…);` with `f` a function that does not return.
fn calls_noreturn(ctx: &PassContext<'_>, stmt: Node<'_>) -> bool {
    let Some(call) = stmt.named_child(0).filter(|c| c.kind() == "call_expression") else {
        return false;
    };
    call.child_by_field_name("function")
        .filter(|f| f.kind() == "identifier")
        .is_some_and(|f| ctx.sema.is_noreturn(ctx.index, f.start_byte(), ctx.view_text(f)))
}

/// A loop whose condition is absent or a constant that is always true.
fn endless(ctx: &PassContext<'_>, looping: Node<'_>) -> bool {
    let Some(mut condition) = looping.child_by_field_name("condition") else {
        // Only `for (;;)` may leave its condition out.
        return looping.kind() == "for_statement";
    };
    while condition.kind() == "parenthesized_expression" {
        let Some(inner) = condition.named_child(0) else {
            return false;
        };
        condition = inner;
    }
    match condition.kind() {
        "true" => true,
        "number_literal" => nonzero_integer(ctx.view_text(condition)),
        _ => false,
    }
}

/// True for an integer constant (decimal, octal or hexadecimal, with any
/// suffix) that is not zero; floating constants are not recognised.
fn nonzero_integer(literal: &str) -> bool {
    let digits = literal.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (digits, 10),
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix)) && digits.chars().any(|c| c != '0')
}

/// True when a `break` inside `stmt` (a loop or a switch) leaves it: one
/// not nested in an inner loop or switch.
fn breaks_out(ctx: &PassContext<'_>, stmt: Node<'_>) -> bool {
    stmt.child_by_field_name("body").is_some_and(|body| {
        !ctx.statement_nodes(body, &BREAKS, |node| BREAK_TARGETS.contains(node))
            .is_empty()
    })
}
