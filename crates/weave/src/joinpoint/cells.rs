//! Memory cells in a loop's state: a scalar the loop reads through memory
//! at an address that does not move while it runs, `*p` or `a[K]` (a
//! pointer or array variable `p`/`a` the loop never assigns and whose
//! address the function never takes, `K` an integer constant).
//!
//! A cell joins the state only when the loop's own condition reads it on
//! every evaluation (not behind `&&`, `||`, `?:` or `sizeof`): the monitor
//! reads it right after the condition did, at the same address, so it
//! never reads what the program did not just read itself (no pointer the
//! loop made invalid, no cell the program leaves unread).
//!
//! `weft-loops` takes the same cells into its integer fragment, so the
//! functions take the parsed view's text rather than a parsed file.

use tree_sitter::Node;

use super::tree::{operator, unparenthesized};

/// A cell, `n` a node of `text` (the parsed view): its key (`*p`, `a[2]`: the same key for `a[1+1]`) and the
/// identifier of its base variable.
pub fn cell<'t>(text: &str, n: Node<'t>) -> Option<(String, Node<'t>)> {
    let n = unparenthesized(n);
    match n.kind() {
        "pointer_expression" if operator(n) == Some("*") => {
            let base = unparenthesized(n.child_by_field_name("argument")?);
            (base.kind() == "identifier").then(|| (format!("*{}", &text[base.byte_range()]), base))
        }
        "subscript_expression" => {
            let base = unparenthesized(n.child_by_field_name("argument")?);
            let index = constant(text, n.child_by_field_name("index")?)?;
            (base.kind() == "identifier").then(|| (format!("{}[{index}]", &text[base.byte_range()]), base))
        }
        _ => None,
    }
}

/// The value of an integer constant expression made of decimal or
/// hexadecimal literals, `+`, `-` and `*`.
fn constant(text: &str, n: Node<'_>) -> Option<i64> {
    let n = unparenthesized(n);
    match n.kind() {
        "number_literal" => {
            let text = text[n.byte_range()].trim_end_matches(['u', 'U', 'l', 'L']);
            match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                Some(hex) => i64::from_str_radix(hex, 16).ok(),
                None if text == "0" || !text.starts_with('0') => text.parse().ok(),
                None => i64::from_str_radix(text, 8).ok(),
            }
        }
        "unary_expression" if operator(n) == Some("-") => {
            constant(text, n.child_by_field_name("argument")?)?.checked_neg()
        }
        "binary_expression" => {
            let l = constant(text, n.child_by_field_name("left")?)?;
            let r = constant(text, n.child_by_field_name("right")?)?;
            match operator(n)? {
                "+" => l.checked_add(r),
                "-" => l.checked_sub(r),
                "*" => l.checked_mul(r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The cells loop `lp`'s own condition reads on every evaluation, each
/// once, in source order (none for a loop without a condition).
pub fn surely_read<'t>(text: &str, lp: Node<'t>) -> Vec<(String, Node<'t>)> {
    let Some(condition) = lp.child_by_field_name("condition") else {
        return Vec::new();
    };
    let mut out: Vec<(String, Node<'t>)> = Vec::new();
    let mut cursor = condition.walk();
    let mut stack = vec![condition];
    while let Some(n) = stack.pop() {
        if let Some((key, base)) = cell(text, n)
            && always_evaluated(condition, n)
            && !out.iter().any(|(k, _)| *k == key)
        {
            out.push((key, base));
        }
        let children: Vec<Node<'t>> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// Whether evaluating `condition` always evaluates `n`, which it holds.
pub fn always_evaluated(condition: Node<'_>, n: Node<'_>) -> bool {
    let mut child = n;
    while child.id() != condition.id() {
        let Some(parent) = child.parent() else {
            return false;
        };
        let first = |field: &str| {
            parent
                .child_by_field_name(field)
                .is_some_and(|c| c.id() == child.id())
        };
        let lazy = match parent.kind() {
            "binary_expression" => matches!(operator(parent), Some("&&" | "||")) && !first("left"),
            "conditional_expression" => !first("condition"),
            "sizeof_expression" | "alignof_expression" | "generic_expression" => true,
            _ => false,
        };
        if lazy {
            return false;
        }
        child = parent;
    }
    true
}

/// Whether the function holding `node` takes the address of variable
/// `name` (`&name`): memory might then change the variable itself.
pub fn address_taken(text: &str, node: Node<'_>, name: &str) -> bool {
    let function = std::iter::successors(Some(node), |n| n.parent())
        .find(|n| n.kind() == "function_definition")
        .unwrap_or(node);
    let mut cursor = function.walk();
    let mut stack = vec![function];
    while let Some(n) = stack.pop() {
        if n.kind() == "pointer_expression"
            && operator(n) == Some("&")
            && n.child_by_field_name("argument")
                .map(unparenthesized)
                .is_some_and(|a| a.kind() == "identifier" && &text[a.byte_range()] == name)
        {
            return true;
        }
        stack.extend(n.children(&mut cursor));
    }
    false
}
