//! Spelling a type back into C source: how to declare a temporary "of the
//! same type as" a variable, a struct member or a function's return value.
//!
//! The spelling is cut from the declaration's own text (specifiers, then the
//! declarator with the declared name replaced), so typedef names, pointer
//! levels and function-pointer syntax come out exactly as the programmer
//! wrote them; nothing is regenerated from the resolved [`super::CType`].

use std::ops::Range;

use tree_sitter::Node;

/// A type written around a hole for the declared name:
/// `prefix NAME suffix;` declares an unqualified object of that type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSpelling {
    pub prefix: String,
    pub suffix: String,
}

impl TypeSpelling {
    /// A declaration (without initialiser) of `name`: `int (*name)(int);`.
    pub fn declare(&self, name: &str) -> String {
        format!("{}{}{};", self.prefix, name, self.suffix)
    }
}

/// Node kinds whose text would define a type a second time if copied.
const BODY_KINDS: &[&str] = &["field_declaration_list", "enumerator_list"];

/// Spells the type of the object declared by `hole` inside `declarator`,
/// whose declaration's specifier nodes are `specifiers`.
///
/// `text_of` gives the original text of a node or `None` when the node (or
/// part of it) does not come verbatim from the original file. Returns `None`
/// when the type cannot be written for a fresh, assignable object.
pub fn spell<'t>(
    specifiers: &[Node<'t>],
    declarator: Option<Node<'t>>,
    hole: Node<'t>,
    text_of: &dyn Fn(Node<'t>) -> Option<String>,
) -> Option<TypeSpelling> {
    // Qualifiers apply to the object itself when nothing but parentheses
    // stands between the hole and the specifiers, or when the innermost
    // pointer around the hole carries them: a temporary must drop those to
    // stay assignable.
    let mut object_level = true;
    // The nodes from `declarator` down to the hole's parent, found by
    // descending (asking for a parent walks down from the root each time).
    let mut around = Vec::new();
    if let Some(mut node) = declarator {
        while node.id() != hole.id() {
            around.push(node);
            let Some(child) = node.child_with_descendant(hole) else {
                break;
            };
            node = child;
        }
    }
    // Innermost first.
    for parent in around.into_iter().rev() {
        match parent.kind() {
            "parenthesized_declarator" => {}
            "pointer_declarator" => {
                if object_level && has_child_kind(parent, "type_qualifier") {
                    return None;
                }
                object_level = false;
            }
            _ => object_level = false,
        }
    }

    let mut words = Vec::new();
    for spec in specifiers {
        match spec.kind() {
            "storage_class_specifier" | "attribute_specifier" | "attribute_declaration" => {
                continue;
            }
            "type_qualifier" if object_level => continue,
            _ => {}
        }
        if contains_kind(*spec, BODY_KINDS) {
            return None;
        }
        let text = text_of(*spec)?;
        words.push(one_line(*spec, &text, 0..text.len())?);
    }
    if words.is_empty() {
        // K&R implicit int.
        words.push("int".to_string());
    }
    let mut prefix = words.join(" ");
    prefix.push(' ');
    let suffix = match declarator {
        Some(decl) => {
            let whole = text_of(decl)?;
            let start = hole.start_byte().checked_sub(decl.start_byte())?;
            let end = hole.end_byte().checked_sub(decl.start_byte())?;
            // The view and the original agree inside `decl` (text_of
            // succeeded), so view offsets index the original text.
            prefix.push_str(&one_line(decl, &whole, 0..start)?);
            one_line(decl, &whole, end..whole.len())?
        }
        None => String::new(),
    };
    Some(TypeSpelling { prefix, suffix })
}

/// The part `keep` of `text`, the text of `node`, made fit for a one-line
/// declaration: comments inside it become a space (joined onto one line, a
/// `//` comment would swallow what follows) and whitespace runs that hold
/// a line break become one space.
fn one_line(node: Node<'_>, text: &str, keep: Range<usize>) -> Option<String> {
    let mut joined = String::new();
    let mut at = keep.start;
    // Every comment starts with `/`: text without one has none to look for.
    let inside = if text.get(keep.clone())?.contains('/') {
        comments(node)
    } else {
        Vec::new()
    };
    for comment in inside {
        let start = comment.start_byte() - node.start_byte();
        let end = comment.end_byte() - node.start_byte();
        if start >= keep.start && end <= keep.end {
            joined.push_str(text.get(at..start)?);
            joined.push(' ');
            at = end;
        }
    }
    joined.push_str(text.get(at..keep.end)?);
    let mut line = String::with_capacity(joined.len());
    let mut rest = joined.as_str();
    while let Some(space) = rest.find(char::is_whitespace) {
        line.push_str(&rest[..space]);
        let after = rest[space..].trim_start();
        let run = &rest[space..rest.len() - after.len()];
        line.push_str(if run.contains('\n') { " " } else { run });
        rest = after;
    }
    line.push_str(rest);
    Some(line)
}

/// The comments inside `node`, in source order.
fn comments(node: Node<'_>) -> Vec<Node<'_>> {
    let mut found = Vec::new();
    // One cursor for the whole walk (it cannot leave `node`).
    let mut cursor = node.walk();
    if !cursor.goto_first_child() {
        return found;
    }
    'walk: loop {
        let child = cursor.node();
        if child.kind() == "comment" {
            found.push(child);
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    found
}

/// The type of the object declared by `hole` inside `declarator` as
/// written: the qualifiers and type specifier among `specifiers`, then the
/// declarator with the name cut out (`const char *[4]` for
/// `static const char *names[4]`). Storage classes and attributes are not
/// part of a type; a struct, union or enum body is abbreviated to `{…}` so
/// that the text stays one short line. Whitespace is normalised.
pub fn written<'t>(
    specifiers: &[Node<'t>],
    declarator: Node<'t>,
    hole: Node<'t>,
    text_of: &dyn Fn(Node<'t>) -> String,
) -> String {
    let mut words = Vec::new();
    for spec in specifiers {
        match spec.kind() {
            "storage_class_specifier" | "attribute_specifier" | "attribute_declaration" => {}
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                let keyword = spec.kind().trim_end_matches("_specifier");
                words.push(keyword.to_string());
                if let Some(tag) = spec.child_by_field_name("name") {
                    words.push(text_of(tag));
                }
                if spec.child_by_field_name("body").is_some() {
                    words.push("{…}".to_string());
                }
            }
            _ => words.push(text_of(*spec)),
        }
    }
    if words.is_empty() {
        // K&R implicit int.
        words.push("int".to_string());
    }
    let whole = text_of(declarator);
    let around = hole
        .start_byte()
        .checked_sub(declarator.start_byte())
        .zip(hole.end_byte().checked_sub(declarator.start_byte()))
        .and_then(|(start, end)| Some(format!("{}{}", whole.get(..start)?, whole.get(end..)?)))
        .unwrap_or_default();
    words.push(around);
    words.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

fn has_child_kind(node: Node<'_>, kind: &str) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor).any(|c| c.kind() == kind)
}

fn contains_kind(node: Node<'_>, kinds: &[&str]) -> bool {
    if kinds.contains(&node.kind()) {
        return true;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).any(|c| contains_kind(c, kinds))
}
