//! What a function writes through a pointer before reading it: a buffer
//! it fills, a block whose members it sets. What such a part holds before
//! the function writes it is not the program's (stack garbage up to some
//! NUL, an uninitialised heap block): a trace point must not read it
//! (docs/invariants.md).
//!
//! The rule is syntactic and errs towards "read". The accesses to what a
//! pointer `p` points to are ordered as C evaluates them within an
//! expression (the right side of `=` before its left side is written, a
//! call's arguments before the call fills one) and in text order between
//! expressions; a part is written first when its first access writes it.
//! Accesses: `p[i]`, `*p`, `*(p + i)` (what p points to as a whole),
//! `p->m`, `(*p).m` (member `m`), and `p`, `p + i` or `&p[i]` passed to a
//! call, which writes when it fills that argument: a C library function
//! known to ([`weft_c::library::fills_argument`]), or a function defined in
//! the same file whose parameter is written first (followed through calls
//! up to a depth). A write is a plain `=`; `+=`, `++` and any other use
//! read. Other uses of the pointer itself (compared, assigned, returned)
//! are no access.

use std::collections::HashMap;

use tree_sitter::Node;

use super::Value;
use super::callee::definition;
use super::params::{param_identifier, parameters};
use super::tree::{field_in_parent, operator};
use super::vars::is_var_use;
use weft_c::ParsedFile;
use weft_c::library::fills_argument;
use weft_c::syntax::declarator_name;

/// How deep calls between the file's functions are followed.
const MAX_DEPTH: usize = 8;

/// The parts of what variable `name` points to that `function` writes
/// before reading them, as a list of strings: `*` for what it points to as
/// a whole, `->m` for member `m`. `own` is the variable's declarator when
/// the function declares it; any other declaration of `name` in the
/// function's body (which could hide it) gives an empty list.
pub fn written_first(file: &ParsedFile, function: Node<'_>, own: Option<Node<'_>>, name: &str) -> Value {
    let root = std::iter::successors(Some(function), |n| n.parent())
        .last()
        .unwrap_or(function);
    let mut follow = Follow::default();
    let parts = first_writes(file, root, function, own, name, &mut follow);
    Value::List(parts.into_iter().map(Value::Str).collect())
}

/// One access to what a pointer points to.
#[derive(Debug)]
struct Access {
    /// Where it happens, in evaluation order.
    at: usize,
    write: bool,
    part: Part,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Whole,
    Member(String),
}

/// The callees being followed, and what is known of those followed.
#[derive(Default)]
struct Follow {
    stack: Vec<String>,
    fills: HashMap<(String, usize), bool>,
}

fn first_writes(
    file: &ParsedFile,
    root: Node<'_>,
    function: Node<'_>,
    own: Option<Node<'_>>,
    name: &str,
    follow: &mut Follow,
) -> Vec<String> {
    let Some(body) = function.child_by_field_name("body") else {
        return Vec::new();
    };
    if declares_other(file, body, own, name) {
        return Vec::new();
    }
    let mut accesses = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier"
            && file.node_text(n) == name
            && is_var_use(n, n.parent(), field_in_parent(n))
        {
            accesses.extend(pointer_use(file, root, n, Part::Whole, follow));
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    accesses.sort_by_key(|a| a.at);
    let mut out = Vec::new();
    if accesses.first().is_some_and(|a| a.write && a.part == Part::Whole) {
        out.push("*".to_string());
    }
    let mut members: Vec<&str> = accesses
        .iter()
        .filter_map(|a| match &a.part {
            Part::Member(m) => Some(m.as_str()),
            Part::Whole => None,
        })
        .collect();
    members.sort_unstable();
    members.dedup();
    for m in members {
        let first = accesses
            .iter()
            .find(|a| a.part == Part::Whole || a.part == Part::Member(m.to_string()));
        if first.is_some_and(|a| a.write) {
            out.push(format!("->{m}"));
        }
    }
    out
}

/// Whether `body` declares `name` other than by `own`.
fn declares_other(file: &ParsedFile, body: Node<'_>, own: Option<Node<'_>>, name: &str) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "declaration" {
            let mut cursor = n.walk();
            let other = n.children_by_field_name("declarator", &mut cursor).any(|d| {
                own.is_none_or(|o| o.id() != d.id())
                    && declarator_name(d).is_some_and(|id| file.node_text(id) == name)
            });
            if other {
                return true;
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    false
}

/// The access a pointer expression `n` (the pointer, or one derived from
/// it) makes, reaching `part`: through its parentheses, casts and
/// arithmetic (`p + i`), up to what uses it.
fn pointer_use(
    file: &ParsedFile,
    root: Node<'_>,
    n: Node<'_>,
    part: Part,
    follow: &mut Follow,
) -> Option<Access> {
    let d = derived(n);
    let parent = d.parent()?;
    let field = field_in_parent(d);
    match parent.kind() {
        "subscript_expression" if field == Some("argument") => element(file, root, parent, part, follow),
        "pointer_expression" if operator(parent) == Some("*") => element(file, root, parent, part, follow),
        "field_expression" if operator(parent) == Some("->") && field == Some("argument") => {
            let part = match part {
                Part::Whole => Part::Member(file.node_text(parent.child_by_field_name("field")?).to_string()),
                member => member,
            };
            element(file, root, parent, part, follow)
        }
        "argument_list" => argument(file, root, parent, d, part, follow),
        _ => None,
    }
}

/// `n` and the parentheses, casts and `+`/`-` arithmetic around it: the
/// largest expression that is still a pointer into the same block.
fn derived(n: Node<'_>) -> Node<'_> {
    let mut cur = n;
    while let Some(parent) = cur.parent() {
        let climb = match parent.kind() {
            "parenthesized_expression" => true,
            "cast_expression" => field_in_parent(cur) == Some("value"),
            "binary_expression" => matches!(operator(parent), Some("+" | "-")),
            _ => false,
        };
        if !climb {
            break;
        }
        cur = parent;
    }
    cur
}

/// The access an element or member `a` (`p[i]`, `*p`, `p->m`) makes: the
/// lvalue it is part of (`p->m.x`, `(*p).m`) written by a plain `=`, its
/// address passed on, or read. One element of a member array written by
/// index (`p->cells[i] = v`) does not write the member: the others keep
/// what they held.
fn element(
    file: &ParsedFile,
    root: Node<'_>,
    a: Node<'_>,
    mut part: Part,
    follow: &mut Follow,
) -> Option<Access> {
    let mut cur = a;
    let mut partial = false;
    loop {
        let parent = cur.parent()?;
        match parent.kind() {
            "parenthesized_expression" => {}
            "subscript_expression" if field_in_parent(cur) == Some("argument") => {
                partial |= part != Part::Whole;
            }
            "field_expression" if operator(parent) == Some(".") => {
                if part == Part::Whole {
                    part = Part::Member(file.node_text(parent.child_by_field_name("field")?).to_string());
                }
            }
            _ => break,
        }
        cur = parent;
    }
    let parent = cur.parent()?;
    match parent.kind() {
        "assignment_expression"
            if !partial && field_in_parent(cur) == Some("left") && operator(parent) == Some("=") =>
        {
            Some(Access {
                at: parent.end_byte(),
                write: true,
                part,
            })
        }
        "pointer_expression" if operator(parent) == Some("&") => {
            pointer_use(file, root, parent, part, follow)
        }
        "sizeof_expression" => None,
        _ => Some(Access {
            at: cur.start_byte(),
            write: false,
            part,
        }),
    }
}

/// The access a call makes to `part` through its argument `arg` (in
/// `list`): a write when the call ends, when the callee fills the
/// argument; a read where the argument is, otherwise.
fn argument(
    file: &ParsedFile,
    root: Node<'_>,
    list: Node<'_>,
    arg: Node<'_>,
    part: Part,
    follow: &mut Follow,
) -> Option<Access> {
    let call = list.parent().filter(|c| c.kind() == "call_expression")?;
    let mut cursor = list.walk();
    let index = list
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .position(|c| c.id() == arg.id())?;
    let callee = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "identifier")
        .map(|f| file.node_text(f));
    let fills = callee.is_some_and(|f| fills_argument(f, index) || user_fills(file, root, f, index, follow));
    Some(if fills {
        Access {
            at: call.end_byte(),
            write: true,
            part,
        }
    } else {
        Access {
            at: arg.start_byte(),
            write: false,
            part,
        }
    })
}

/// Whether function `name`, defined in the file, writes what its parameter
/// `index` points to before reading it.
fn user_fills(file: &ParsedFile, root: Node<'_>, name: &str, index: usize, follow: &mut Follow) -> bool {
    let key = (name.to_string(), index);
    if let Some(&known) = follow.fills.get(&key) {
        return known;
    }
    // A function being followed (recursion) reads, as far as is known.
    if follow.stack.iter().any(|s| s == name) || follow.stack.len() >= MAX_DEPTH {
        return false;
    }
    let Some(def) = definition(file, root, name) else {
        return false;
    };
    let Some(param) = parameters(file, def)
        .get(index)
        .and_then(|p| param_identifier(*p))
    else {
        return false;
    };
    follow.stack.push(name.to_string());
    let parts = first_writes(file, root, def, None, file.node_text(param), follow);
    follow.stack.pop();
    let fills = parts.iter().any(|p| p == "*");
    follow.fills.insert(key, fills);
    fills
}

#[cfg(test)]
mod tests;
