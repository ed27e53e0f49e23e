//! Loop attributes: kind, rank, nesting, control variable and statically
//! known iteration counts.

use tree_sitter::Node;

use super::Value;
use super::slice::slice;
use super::tree::{handle, is_loop_kind, unparenthesized_parent};
use super::vars::{Reference, is_var_use, reference};
use weft_c::ParsedFile;

/// The value of loop attribute `name` (canonical), `None` when `name` is not
/// a loop attribute.
pub fn attribute(file: &ParsedFile, lp: Node<'_>, name: &str) -> Option<Value> {
    Some(match name {
        "kind" => Value::Str(loop_kind(lp).to_string()),
        "rank" => Value::Str(rank(lp)),
        "is_innermost" => Value::Bool(!contains_loop(lp)),
        "is_outermost" => Value::Bool(enclosing_loops(lp).next().is_none()),
        "nested_level" => Value::Int(enclosing_loops(lp).count() as i64),
        "num_iterations" => num_iterations(file, lp).map_or(Value::Null, Value::Int),
        "control_var" => for_header(file, lp).map_or(Value::Null, |h| Value::Str(h.var.to_string())),
        _ => return None,
    })
}

/// Whether `name` is one of the attributes [`state_attribute`] answers.
pub fn is_state_attribute(name: &str) -> bool {
    matches!(
        name,
        "state" | "state_cells" | "state_exact" | "state_unknowns" | "has_exit"
    )
}

/// The loop's state for non-termination monitoring (see [`super::slice`]):
/// `state` (its variables, as the `var` join point of each one's first use
/// in the loop), `state_cells` (its memory cells, each as its key and the
/// `var` join point of its base variable), `state_exact`, `state_unknowns`
/// and `has_exit`.
pub fn state_attribute(file: &ParsedFile, index: usize, lp: Node<'_>, name: &str) -> Option<Value> {
    let state = slice(file, lp);
    Some(match name {
        "state" => Value::List(
            state
                .vars
                .iter()
                .map(|(_, n)| Value::JoinPoint(handle("var", index, *n)))
                .collect(),
        ),
        "state_cells" => Value::List(
            state
                .cells
                .iter()
                .map(|(key, base)| {
                    Value::List(vec![
                        Value::Str(key.clone()),
                        Value::JoinPoint(handle("var", index, *base)),
                    ])
                })
                .collect(),
        ),
        "state_exact" => Value::Bool(state.unknowns.is_empty()),
        "state_unknowns" => Value::List(state.unknowns.into_iter().map(Value::Str).collect()),
        "has_exit" => Value::Bool(state.has_exit),
        _ => return None,
    })
}

/// `for`, `while` or `dowhile`.
pub fn loop_kind(lp: Node<'_>) -> &'static str {
    match lp.kind() {
        "for_statement" => "for",
        "while_statement" => "while",
        _ => "dowhile",
    }
}

/// The loops enclosing `node`, innermost first (within its function).
fn enclosing_loops<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(node.parent(), |n| n.parent()).filter(|n| is_loop_kind(n.kind()))
}

/// Whether any loop is nested in `lp`.
fn contains_loop(lp: Node<'_>) -> bool {
    let mut cursor = lp.walk();
    if !cursor.goto_first_child() {
        return false;
    }
    loop {
        if is_loop_kind(cursor.node().kind()) {
            return true;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node().id() == lp.id() {
                return false;
            }
        }
    }
}

/// The dotted position of `lp` among the loop nests of its file: every loop
/// is numbered among the loops sharing its innermost enclosing loop (or the
/// file), in source order, counting loops the front end did not understand
/// too so ranks do not move when it improves.
fn rank(lp: Node<'_>) -> String {
    let mut chain: Vec<Node<'_>> = enclosing_loops(lp).collect();
    chain.reverse();
    chain.push(lp);
    let mut container = std::iter::successors(Some(lp), |n| n.parent())
        .last()
        .unwrap_or(lp);
    let mut parts = Vec::with_capacity(chain.len());
    for l in chain {
        parts.push(position_among_siblings(container, l).to_string());
        container = l;
    }
    parts.join(".")
}

/// 1-based index of loop `target` among the loops in `container` that are
/// not nested in another loop of `container`.
fn position_among_siblings(container: Node<'_>, target: Node<'_>) -> usize {
    let mut count = 0;
    let mut cursor = container.walk();
    if !cursor.goto_first_child() {
        return 0;
    }
    loop {
        let n = cursor.node();
        let is_loop = is_loop_kind(n.kind());
        if is_loop {
            count += 1;
            if n.id() == target.id() {
                return count;
            }
        }
        // Loops are not entered: the loops in them are nested, not siblings.
        if !is_loop && n.start_byte() <= target.start_byte() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node().id() == container.id() {
                return count;
            }
        }
    }
}

/// A for header `for (VAR = A; VAR OP B; VAR STEP)`.
struct ForHeader<'a> {
    var: &'a str,
    start: Option<i64>,
    op: &'a str,
    bound: Option<i64>,
    step: Option<i64>,
}

/// The for header of `lp` when it initialises, tests and updates one
/// variable.
fn for_header<'a>(file: &'a ParsedFile, lp: Node<'a>) -> Option<ForHeader<'a>> {
    if lp.kind() != "for_statement" {
        return None;
    }
    let text = |n: Node<'_>| file.node_text(n);
    // Initializer: `i = A` or `int i = A`.
    let init = lp.child_by_field_name("initializer")?;
    let (var, start) = match init.kind() {
        "assignment_expression" => {
            let left = init.child_by_field_name("left")?;
            let op = init.child_by_field_name("operator")?;
            if left.kind() != "identifier" || op.kind() != "=" {
                return None;
            }
            (
                text(left),
                init.child_by_field_name("right").and_then(|r| literal(file, r)),
            )
        }
        "declaration" => {
            let mut cursor = init.walk();
            let declarators: Vec<_> = init.children_by_field_name("declarator", &mut cursor).collect();
            let [d] = declarators.as_slice() else { return None };
            let name = d
                .child_by_field_name("declarator")
                .filter(|n| n.kind() == "identifier")?;
            (
                text(name),
                d.child_by_field_name("value").and_then(|v| literal(file, v)),
            )
        }
        _ => return None,
    };
    // Condition: `i OP B`.
    let cond = lp.child_by_field_name("condition")?;
    if cond.kind() != "binary_expression" {
        return None;
    }
    let left = cond.child_by_field_name("left")?;
    if left.kind() != "identifier" || text(left) != var {
        return None;
    }
    let op = cond.child_by_field_name("operator")?.kind();
    let bound = cond.child_by_field_name("right").and_then(|r| literal(file, r));
    // Update: `i++`, `--i`, `i += C`, `i -= C`.
    let update = lp.child_by_field_name("update")?;
    let step = match update.kind() {
        "update_expression" => {
            let arg = update.child_by_field_name("argument")?;
            if arg.kind() != "identifier" || text(arg) != var {
                return None;
            }
            Some(if update.child_by_field_name("operator")?.kind() == "++" {
                1
            } else {
                -1
            })
        }
        "assignment_expression" => {
            let left = update.child_by_field_name("left")?;
            if left.kind() != "identifier" || text(left) != var {
                return None;
            }
            let c = update.child_by_field_name("right").and_then(|r| literal(file, r));
            match update.child_by_field_name("operator")?.kind() {
                "+=" => c,
                "-=" => c.and_then(i64::checked_neg),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(ForHeader {
        var,
        start,
        op,
        bound,
        step,
    })
}

/// The iteration count of a counted for loop whose body leaves the control
/// variable alone.
fn num_iterations(file: &ParsedFile, lp: Node<'_>) -> Option<i64> {
    let h = for_header(file, lp)?;
    let (a, b, s) = (h.start?, h.bound?, h.step?);
    if s == 0 || writes(file, lp.child_by_field_name("body")?, h.var) {
        return None;
    }
    let (a, b, s) = (a as i128, b as i128, s as i128);
    let count = match (h.op, s > 0) {
        ("<", true) => (b - a + s - 1).div_euclid(s).max(0),
        ("<=", true) => (b - a).div_euclid(s).max(-1) + 1,
        (">", false) => (a - b - s - 1).div_euclid(-s).max(0),
        (">=", false) => (a - b).div_euclid(-s).max(-1) + 1,
        ("!=", _) if (b - a) % s == 0 && (b - a) / s >= 0 => (b - a) / s,
        _ => return None,
    };
    i64::try_from(count).ok()
}

/// Whether anything in `scope` writes variable `name` (or takes its address).
fn writes(file: &ParsedFile, scope: Node<'_>, name: &str) -> bool {
    let mut cursor = scope.walk();
    loop {
        let n = cursor.node();
        if n.kind() == "identifier"
            && file.node_text(n) == name
            && is_var_use(n, n.parent(), cursor.field_name())
        {
            let address_taken = unparenthesized_parent(n).is_some_and(|(p, _)| {
                p.kind() == "pointer_expression"
                    && p.child_by_field_name("operator").is_some_and(|o| o.kind() == "&")
            });
            if address_taken || reference(n) != Reference::Read {
                return true;
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node().id() == scope.id() {
                return false;
            }
        }
    }
}

/// The value of an integer literal, possibly negated or parenthesized.
fn literal(file: &ParsedFile, node: Node<'_>) -> Option<i64> {
    weft_c::syntax::integer_constant(&file.view, node)
}
