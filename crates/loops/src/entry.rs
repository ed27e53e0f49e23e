//! What is known when a loop of `main` is entered: the straight-line
//! statements before it at the top of `main`'s body, read for the inputs
//! (`__VERIFIER_nondet_*()` calls, in the order they run) whose values go
//! straight into a variable, and the variables set to an integer constant.
//! A solver's model of the loop's SRC over these variables says which
//! input values reach the hang (`weft nonterm check --svcomp`).

use std::collections::BTreeMap;
use std::ops::Range;

use tree_sitter::Node;

/// The entry of a loop of `main`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Each input call before the loop, in order: the variable it is
    /// assigned to, if any (`x = __VERIFIER_nondet_int();`).
    pub inputs: Vec<Option<String>>,
    /// Variables holding an integer constant at the loop's entry.
    pub constants: BTreeMap<String, i128>,
}

const INPUT: &str = "__VERIFIER_nondet_";

/// The entry of the loop at `range` in `text`, when it is a statement of
/// `main`'s body and no input call before it sits where its order is not
/// the text's (in a branch or an inner loop).
pub fn entry(text: &str, range: &Range<usize>) -> Option<Entry> {
    let parsed = weft_c::ParsedFile::parse_plain(std::path::PathBuf::from("entry.c"), text.to_string());
    let tree = parsed.whole_tree();
    let root = tree.root_node();
    let mut cursor = root.walk();
    let main = root.named_children(&mut cursor).find(|f| {
        f.kind() == "function_definition"
            && f.byte_range().contains(&range.start)
            && f.child_by_field_name("declarator")
                .and_then(|d| d.child_by_field_name("declarator"))
                .is_some_and(|n| &text[n.byte_range()] == "main")
    })?;
    let body = main.child_by_field_name("body")?;
    let mut entry = Entry::default();
    let mut cursor = body.walk();
    for statement in body.named_children(&mut cursor) {
        if statement.byte_range() == *range {
            return Some(entry);
        }
        if statement.byte_range().contains(&range.start) {
            return None;
        }
        read_statement(statement, text, &mut entry)?;
    }
    None
}

/// Adds what `statement` sets to `entry`; None when it calls an input
/// where the order of calls is not the text's.
fn read_statement(statement: Node<'_>, text: &str, entry: &mut Entry) -> Option<()> {
    let assignments: Vec<(Node, Node)> = match statement.kind() {
        "declaration" => {
            let mut cursor = statement.walk();
            statement
                .children_by_field_name("declarator", &mut cursor)
                .filter(|d| d.kind() == "init_declarator")
                .filter_map(|d| {
                    Some((
                        d.child_by_field_name("declarator")?,
                        d.child_by_field_name("value")?,
                    ))
                })
                .collect()
        }
        "expression_statement" => statement
            .named_child(0)
            .filter(|e| e.kind() == "assignment_expression")
            .filter(|e| {
                e.child_by_field_name("operator")
                    .is_some_and(|o| &text[o.byte_range()] == "=")
            })
            .and_then(|e| Some((e.child_by_field_name("left")?, e.child_by_field_name("right")?)))
            .into_iter()
            .collect(),
        _ => Vec::new(),
    };
    if assignments.is_empty() {
        // An input whose value is dropped still takes its turn.
        if statement.kind() == "expression_statement"
            && statement.named_child(0).is_some_and(|c| is_input_call(c, text))
        {
            entry.inputs.push(None);
            return Some(());
        }
        let read = &text[statement.byte_range()];
        if read.contains(INPUT) {
            return None;
        }
        // A branch may assign what it names: its constants are unknown.
        entry.constants.retain(|name, _| !names(statement, text, name));
        return Some(());
    }
    for (left, right) in assignments {
        let name = (left.kind() == "identifier").then(|| text[left.byte_range()].to_string());
        let value = &text[right.byte_range()];
        if let Some(name) = &name {
            entry.constants.remove(name);
        }
        if is_input_call(right, text) {
            entry.inputs.push(name);
        } else if value.contains(INPUT) {
            return None;
        } else if let (Some(name), Some(k)) =
            (name, crate::extract::literal(value).and_then(|e| e.constant()))
        {
            entry.constants.insert(name, k);
        }
    }
    Some(())
}

/// `__VERIFIER_nondet_X()`, one that draws a value (not `_pointer`).
fn is_input_call(node: Node<'_>, text: &str) -> bool {
    node.kind() == "call_expression"
        && node.child_by_field_name("function").is_some_and(|f| {
            let name = &text[f.byte_range()];
            name.starts_with(INPUT) && name != "__VERIFIER_nondet_pointer"
        })
}

/// Whether `node` has an identifier `name` in it.
fn names(node: Node<'_>, text: &str, name: &str) -> bool {
    if node.kind() == "identifier" && &text[node.byte_range()] == name {
        return true;
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor).any(|c| names(c, text, name))
}
