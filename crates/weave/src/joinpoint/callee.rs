//! Program-defined functions a loop may call without losing its exact
//! state: their only effects are ending the run (an assertion that aborts
//! on a condition of its arguments) or writing output, and their result
//! depends on their arguments alone.
//!
//! A call to such a function changes nothing of the loop's state, so the
//! loop stays exact; what it reads is its arguments, which may decide an
//! exit (the abort), so they join the state.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::tree::field_in_parent;
use super::vars::is_var_use;
use weft_c::ParsedFile;
use weft_c::library::OUTPUT_ONLY;

/// Calls that never return: a loop calling one has an exit.
pub const NORETURN: &[&str] = &[
    "exit",
    "_exit",
    "_Exit",
    "abort",
    "quick_exit",
    "longjmp",
    "siglongjmp",
    "__builtin_trap",
    "__builtin_unreachable",
    "__assert_fail",
    "__VERIFIER_error",
    "error",
    "err",
    "errx",
];

/// SV-COMP's checks, which end the run unless their argument holds, when
/// the program does not define them in the same file (a header may).
const VERIFIER_CHECKS: &[&str] = &["__VERIFIER_assert", "__VERIFIER_assume"];

/// How deep calls between program-defined functions are followed.
const MAX_DEPTH: usize = 8;

/// What a call to a function with no effect on the loop does.
#[derive(Debug, Default, Clone)]
pub struct Callee {
    /// It may end the run (calls a function that never returns).
    pub may_exit: bool,
    /// The input functions it calls (`__VERIFIER_nondet_int`), which feed the
    /// loop as its own would.
    pub inputs: BTreeSet<String>,
}

/// Whether `call` (a `call_expression`) is a library output call whose
/// result is discarded and whose arguments have no effect.
pub fn is_output(file: &ParsedFile, call: Node<'_>) -> bool {
    let name = call.child_by_field_name("function").map(|f| file.node_text(f));
    name.is_some_and(|n| OUTPUT_ONLY.contains(&n))
        && call.parent().is_some_and(|p| p.kind() == "expression_statement")
        && call
            .child_by_field_name("arguments")
            .is_some_and(|a| !has_effect(a))
}

/// The effects of calling `name`, when it is defined in `file` and its
/// body reads only its parameters and locals, writes no memory, and calls
/// only such functions, output, input or functions that never return;
/// `None` otherwise (an unknown or a function with effects).
pub fn pure_callee(file: &ParsedFile, from: Node<'_>, name: &str) -> Option<Callee> {
    let root = std::iter::successors(Some(from), |n| n.parent()).last()?;
    let mut seen = Vec::new();
    callee(file, root, name, &mut seen, Mode::default())
}

/// [`pure_callee`] for a function that may call itself, or call back a
/// function being read (`function.pure`): such calls add no effect.
/// With `reads`, it may also read memory (`*p`, `p->next`, `a[i]`;
/// `function.reads_only`): it still writes none, so no memory changes
/// while it and its callees run.
pub fn recursive_pure(file: &ParsedFile, from: Node<'_>, name: &str, reads: bool) -> Option<Callee> {
    let root = std::iter::successors(Some(from), |n| n.parent()).last()?;
    let mut seen = Vec::new();
    callee(
        file,
        root,
        name,
        &mut seen,
        Mode {
            recursion: true,
            reads,
        },
    )
}

/// What a callee may do besides reading its parameters and locals.
#[derive(Debug, Default, Clone, Copy)]
struct Mode {
    /// Call a function being read (itself).
    recursion: bool,
    /// Read memory.
    reads: bool,
}

fn callee<'t>(
    file: &ParsedFile,
    root: Node<'t>,
    name: &str,
    seen: &mut Vec<String>,
    mode: Mode,
) -> Option<Callee> {
    // A function already being read (recursion) adds no effect of its own
    // (its body's are gathered where it was first met), but a loop calling
    // it may wait on a call that never returns: only `recursive_pure`
    // accepts it.
    if seen.iter().any(|s| s == name) {
        return mode.recursion.then(Callee::default);
    }
    if seen.len() >= MAX_DEPTH {
        return None;
    }
    let Some(def) = definition(file, root, name) else {
        return VERIFIER_CHECKS.contains(&name).then(|| Callee {
            may_exit: true,
            ..Callee::default()
        });
    };
    seen.push(name.to_string());
    let known = locals(file, def);
    let mut out = Callee::default();
    let mut stack = vec![def.child_by_field_name("body")?];
    while let Some(n) = stack.pop() {
        match n.kind() {
            // `NULL` is the standard headers' null pointer constant.
            "identifier"
                if is_var_use(n, n.parent(), field_in_parent(n))
                    && !known.contains(file.node_text(n))
                    && file.node_text(n) != "NULL" =>
            {
                return None;
            }
            "assignment_expression" | "update_expression" => {
                let target = n
                    .child_by_field_name("left")
                    .or_else(|| n.child_by_field_name("argument"))?;
                if target.kind() != "identifier" {
                    return None;
                }
            }
            "subscript_expression" | "field_expression" if !mode.reads => return None,
            "gnu_asm_expression" | "asm_statement" => return None,
            "pointer_expression" if !mode.reads && file.node_text(n).starts_with('*') => return None,
            "call_expression" => {
                let f = file.node_text(n.child_by_field_name("function")?);
                if NORETURN.contains(&f) {
                    out.may_exit = true;
                } else if f.starts_with("__VERIFIER_nondet_") {
                    out.inputs.insert(f.to_string());
                } else if !is_output(file, n) {
                    let inner = callee(file, root, f, seen, mode)?;
                    out.may_exit |= inner.may_exit;
                    out.inputs.extend(inner.inputs);
                }
            }
            _ => {}
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    seen.pop();
    Some(out)
}

/// The definition of function `name` at file scope.
pub(super) fn definition<'t>(file: &ParsedFile, root: Node<'t>, name: &str) -> Option<Node<'t>> {
    let mut cursor = root.walk();
    root.named_children(&mut cursor).find(|d| {
        d.kind() == "function_definition"
            && function_declarator(d.child_by_field_name("declarator"))
                .and_then(|f| f.child_by_field_name("declarator"))
                .is_some_and(|n| file.node_text(n) == name)
    })
}

/// The function declarator under pointer declarators (`int *f(void)`).
fn function_declarator(mut d: Option<Node<'_>>) -> Option<Node<'_>> {
    while let Some(n) = d {
        if n.kind() == "function_declarator" {
            return Some(n);
        }
        d = n.child_by_field_name("declarator");
    }
    None
}

/// The names a definition declares: its parameters and its locals.
fn locals(file: &ParsedFile, def: Node<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![def];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "parameter_declaration" | "init_declarator" | "declaration"
        ) {
            let mut cursor = n.walk();
            for d in n.children_by_field_name("declarator", &mut cursor) {
                let mut d = d;
                while d.kind() != "identifier" {
                    match d.child_by_field_name("declarator") {
                        Some(inner) => d = inner,
                        None => break,
                    }
                }
                if d.kind() == "identifier" {
                    out.insert(file.node_text(d).to_string());
                }
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    out
}

/// Whether `n` assigns, increments or calls anything.
fn has_effect(n: Node<'_>) -> bool {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "assignment_expression" | "update_expression" | "call_expression"
        ) {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    false
}
