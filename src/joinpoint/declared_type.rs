//! Approximate declared types: the declaration of a variable use found by
//! scope lookup in the same file, and what its specifiers and declarator say
//! about it. No headers are read, so a typedef from another file leaves a
//! variable neither primitive nor struct; the exact resolver of `sema`
//! replaces [`lookup`] and [`declared_type`] when it is wired in.

use tree_sitter::Node;

use super::tree::{Shape, declarator_name, declarator_shape};
use crate::c::ParsedFile;

/// Where a declaration lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Param,
    Local,
    Global,
}

/// A declaration of a name: a parameter (a `parameter_declaration`, or the
/// identifier of an old-style parameter list) or a variable declarator (a
/// declarator directly under a `declaration`).
#[derive(Debug, Clone, Copy)]
pub struct Declaration<'t> {
    pub node: Node<'t>,
    pub scope: Scope,
}

impl Declaration<'_> {
    /// The join point kind of the declaration.
    pub fn kind(&self) -> &'static str {
        match self.scope {
            Scope::Param => "param",
            Scope::Local | Scope::Global => "vardecl",
        }
    }
}

/// What the declaration says about the type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredType {
    /// Specifiers and abstract declarator as written, e.g. `const char *`.
    pub text: String,
    pub is_pointer: bool,
    pub is_array: bool,
    pub is_struct: bool,
    pub is_primitive: bool,
}

/// The declaration of the variable used at `var` (an identifier).
pub fn lookup<'t>(file: &'t ParsedFile, var: Node<'t>) -> Option<Declaration<'t>> {
    let name = file.node_text(var);
    let mut child = var;
    while let Some(scope) = child.parent() {
        let found = match scope.kind() {
            "compound_statement" => {
                last_declarator(file, scope, name, var.start_byte()).map(|node| Declaration {
                    node,
                    scope: Scope::Local,
                })
            }
            "for_statement" => scope
                .child_by_field_name("initializer")
                .filter(|i| i.kind() == "declaration")
                .and_then(|d| matching_declarator(file, d, name))
                .map(|node| Declaration {
                    node,
                    scope: Scope::Local,
                }),
            "function_definition" => parameter(file, scope, name).map(|node| Declaration {
                node,
                scope: Scope::Param,
            }),
            "translation_unit" => {
                last_declarator(file, scope, name, var.start_byte()).map(|node| Declaration {
                    node,
                    scope: Scope::Global,
                })
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        child = scope;
    }
    None
}

/// The last variable declarator named `name` among the declarations directly
/// in `block` (or in conditional groups there) that ends before `before`.
fn last_declarator<'t>(file: &ParsedFile, block: Node<'t>, name: &str, before: usize) -> Option<Node<'t>> {
    let mut found = None;
    let mut cursor = block.walk();
    for item in block.named_children(&mut cursor) {
        if item.start_byte() >= before {
            break;
        }
        let hit = match item.kind() {
            "declaration" => matching_declarator(file, item, name),
            k if k.starts_with("preproc_if") || k == "preproc_else" || k == "preproc_elif" => {
                last_declarator(file, item, name, before)
            }
            _ => None,
        };
        if let Some(d) = hit.filter(|d| d.end_byte() <= before) {
            found = Some(d);
        }
    }
    found
}

/// The declarator of `declaration` declaring variable `name`.
fn matching_declarator<'t>(file: &ParsedFile, declaration: Node<'t>, name: &str) -> Option<Node<'t>> {
    let mut cursor = declaration.walk();
    declaration
        .children_by_field_name("declarator", &mut cursor)
        .find(|d| {
            declarator_shape(*d) != Shape::Function
                && declarator_name(*d).is_some_and(|n| file.node_text(n) == name)
        })
}

/// The parameter of `function` named `name`.
fn parameter<'t>(file: &ParsedFile, function: Node<'t>, name: &str) -> Option<Node<'t>> {
    parameters(file, function)
        .into_iter()
        .find(|p| param_name(file, *p) == name)
}

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

/// The name of a parameter ("" when unnamed).
pub fn param_name<'t>(file: &'t ParsedFile, param: Node<'_>) -> &'t str {
    if param.kind() == "identifier" {
        return file.node_text(param);
    }
    param
        .child_by_field_name("declarator")
        .and_then(declarator_name)
        .map_or("", |n| file.node_text(n))
}

/// The name a variable declarator declares.
pub fn vardecl_name<'t>(file: &'t ParsedFile, declarator: Node<'_>) -> &'t str {
    declarator_name(declarator).map_or("", |n| file.node_text(n))
}

/// The type of a declaration (a parameter or a variable declarator).
pub fn declared_type(file: &ParsedFile, decl: &Declaration<'_>) -> DeclaredType {
    let (specified, declarator) = match decl.node.kind() {
        // An old-style parameter: typed by a declaration between the
        // declarator and the body, `int` when there is none.
        "identifier" if decl.scope == Scope::Param => {
            let name = file.node_text(decl.node);
            match kr_declaration(file, decl.node, name) {
                Some((declaration, declarator)) => (declaration, Some(declarator)),
                None => return implicit_int(),
            }
        }
        "parameter_declaration" => (decl.node, decl.node.child_by_field_name("declarator")),
        _ => match decl.node.parent() {
            Some(declaration) => (declaration, Some(decl.node)),
            None => return implicit_int(),
        },
    };
    describe(file, specified, declarator)
}

fn implicit_int() -> DeclaredType {
    DeclaredType {
        text: "int".to_string(),
        is_pointer: false,
        is_array: false,
        is_struct: false,
        is_primitive: true,
    }
}

/// The declaration and declarator typing an old-style parameter.
fn kr_declaration<'t>(file: &ParsedFile, param: Node<'t>, name: &str) -> Option<(Node<'t>, Node<'t>)> {
    let function =
        std::iter::successors(param.parent(), |n| n.parent()).find(|n| n.kind() == "function_definition")?;
    let mut cursor = function.walk();
    function
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "declaration")
        .find_map(|d| matching_declarator(file, d, name).map(|decl| (d, decl)))
}

/// Describes the type given by the specifiers of `specified` (a declaration
/// or parameter declaration) and `declarator`.
fn describe(file: &ParsedFile, specified: Node<'_>, declarator: Option<Node<'_>>) -> DeclaredType {
    let specifiers = specifier_text(file, specified);
    let shape = declarator.map_or(Shape::Plain, declarator_shape);
    let abstract_part = declarator
        .map(|d| abstract_declarator(file, d))
        .unwrap_or_default();
    let text = format!("{specifiers} {abstract_part}")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let base = specified
        .child_by_field_name("type")
        .map_or(Base::Unknown, |t| classify(file, t, 0));
    let (is_pointer, is_array, base) = match (shape, base) {
        (Shape::Pointer, _) => (true, false, Base::Unknown),
        (Shape::Array, _) => (false, true, Base::Unknown),
        (Shape::Function, _) => (false, false, Base::Unknown),
        (Shape::Plain, Base::Pointer) => (true, false, Base::Unknown),
        (Shape::Plain, Base::Array) => (false, true, Base::Unknown),
        (Shape::Plain, b) => (false, false, b),
    };
    DeclaredType {
        text,
        is_pointer,
        is_array,
        is_struct: base == Base::Struct,
        is_primitive: base == Base::Primitive,
    }
}

/// What a type specifier denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    Primitive,
    Struct,
    /// A typedef of a pointer or array type.
    Pointer,
    Array,
    Unknown,
}

/// Typedef chains longer than this are taken as unknown (and cycles stop).
const MAX_TYPEDEF_DEPTH: usize = 8;

fn classify(file: &ParsedFile, specifier: Node<'_>, depth: usize) -> Base {
    match specifier.kind() {
        "primitive_type" if file.node_text(specifier) == "void" => Base::Unknown,
        "primitive_type" | "sized_type_specifier" | "enum_specifier" => Base::Primitive,
        "struct_specifier" | "union_specifier" => Base::Struct,
        "type_identifier" if depth < MAX_TYPEDEF_DEPTH => {
            let name = file.node_text(specifier);
            match typedef(file, file.tree.root_node(), name) {
                Some((definition, declarator)) => match declarator_shape(declarator) {
                    Shape::Pointer => Base::Pointer,
                    Shape::Array => Base::Array,
                    Shape::Function => Base::Unknown,
                    Shape::Plain => definition
                        .child_by_field_name("type")
                        .map_or(Base::Unknown, |t| classify(file, t, depth + 1)),
                },
                None => Base::Unknown,
            }
        }
        _ => Base::Unknown,
    }
}

/// The file-scope typedef of `name`: the type definition and its declarator.
fn typedef<'t>(file: &ParsedFile, scope: Node<'t>, name: &str) -> Option<(Node<'t>, Node<'t>)> {
    let mut cursor = scope.walk();
    for item in scope.named_children(&mut cursor) {
        let hit = match item.kind() {
            "type_definition" => {
                let mut c = item.walk();
                item.children_by_field_name("declarator", &mut c)
                    .find(|d| declarator_name(*d).is_some_and(|n| file.node_text(n) == name))
                    .map(|d| (item, d))
            }
            k if k.starts_with("preproc_if") || k == "preproc_else" || k == "preproc_elif" => {
                typedef(file, item, name)
            }
            _ => None,
        };
        if hit.is_some() {
            return hit;
        }
    }
    None
}

/// Qualifiers and the type specifier of a declaration, as written.
fn specifier_text(file: &ParsedFile, specified: Node<'_>) -> String {
    let mut cursor = specified.walk();
    let parts: Vec<&str> = specified
        .children(&mut cursor)
        .filter(|c| {
            c.kind() == "type_qualifier"
                || specified
                    .child_by_field_name("type")
                    .is_some_and(|t| t.id() == c.id())
        })
        .map(|c| file.node_text(c))
        .collect();
    parts.join(" ")
}

/// A declarator's text without its name and initializer (`*[4]` for `*a[4] = {0}`).
fn abstract_declarator(file: &ParsedFile, declarator: Node<'_>) -> String {
    let declarator = if declarator.kind() == "init_declarator" {
        match declarator.child_by_field_name("declarator") {
            Some(d) => d,
            None => return String::new(),
        }
    } else {
        declarator
    };
    let text = file.node_text(declarator);
    match declarator_name(declarator) {
        Some(name) => {
            let start = name.start_byte() - declarator.start_byte();
            let end = name.end_byte() - declarator.start_byte();
            format!("{}{}", &text[..start], &text[end..])
        }
        None => text.to_string(),
    }
}
