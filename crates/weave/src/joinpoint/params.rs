//! Parameters of function definitions, read from the syntax: which nodes
//! are `param` join points and what they are called.

use tree_sitter::Node;

use weft_c::ParsedFile;
use weft_c::syntax::declarator_name;
use weft_c::syntax::macro_made_name;

/// The parameters of a function definition, in order: `parameter_declaration`
/// nodes, or identifiers of an old-style (K&R) list. `(void)` and `...` are
/// not parameters.
pub fn parameters<'t>(file: &ParsedFile, function: Node<'t>) -> Vec<Node<'t>> {
    let Some(list) = function
        .child_by_field_name("declarator")
        .and_then(function_declarator)
        .and_then(|f| f.child_by_field_name("parameters"))
    else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|p| match p.kind() {
            "identifier" => true,
            "parameter_declaration" => !is_void_only(file, *p),
            _ => false,
        })
        .collect()
}

/// The function declarator of a definition's declarator (`f(...)` in
/// `char *f(int a)`).
fn function_declarator(declarator: Node<'_>) -> Option<Node<'_>> {
    let mut d = declarator;
    loop {
        if d.kind() == "function_declarator" {
            // `PREFIX(name)(int a)`: the inner call makes the name.
            if macro_made_name(d).is_some() {
                return Some(d);
            }
            // `int (*f(int a))(char)`: the parameters of f are the innermost.
            let inner = d.child_by_field_name("declarator").and_then(function_declarator);
            return inner.or(Some(d));
        }
        d = match d.kind() {
            "parenthesized_declarator" => d.named_child(0)?,
            _ => d.child_by_field_name("declarator")?,
        };
    }
}

/// `(void)`: a lone `void` without declarator declares no parameter.
fn is_void_only(file: &ParsedFile, param: Node<'_>) -> bool {
    param.child_by_field_name("declarator").is_none()
        && param
            .child_by_field_name("type")
            .is_some_and(|t| file.node_text(t) == "void")
}

/// The identifier a parameter declares: the K&R list identifier itself, or
/// the name in a parameter declaration's declarator (`None` when unnamed).
pub fn param_identifier(param: Node<'_>) -> Option<Node<'_>> {
    if param.kind() == "identifier" {
        return Some(param);
    }
    param.child_by_field_name("declarator").and_then(declarator_name)
}

/// The function definition a parameter belongs to.
pub fn function_of(param: Node<'_>) -> Option<Node<'_>> {
    std::iter::successors(param.parent(), |n| n.parent()).find(|n| n.kind() == "function_definition")
}
