//! Attributes of declared objects (`param`, `vardecl`, `var`) that need
//! name resolution: the declaration, its type and its storage class all come
//! from [`Semantics`], which follows scopes, typedefs and the project's
//! headers. Anything it cannot resolve has an unknown type: `type_known` is
//! false, the shape attributes are false and `type` is null, so strategies
//! leave it alone.

use tree_sitter::Node;

use super::catalogue;
use super::members;
use super::params::{function_of, param_identifier, parameters};
use super::tree::{field_in_parent, handle};
use super::{JoinPoint, Value};
use weft_c::ParsedFile;
use weft_c::sema::{DeclKind, DeclSite, Declaration, Semantics, StorageClass};
use weft_c::syntax::declarator_name;

/// Kinds whose type attributes this module answers.
const TYPED_KINDS: &[&str] = &["param", "vardecl", "var"];

/// Attributes of [`TYPED_KINDS`] answered from [`Semantics`] (canonical names).
const SEMANTIC_ATTRIBUTES: &[&str] = &[
    "type",
    "scalar_type",
    "type_known",
    "is_param",
    "is_global",
    "is_local",
    "is_primitive",
    "is_pointer",
    "is_array",
    "is_struct",
    "is_const",
    "is_volatile",
    "storage_class",
    "declaration",
    "target_type",
    "fields",
    "length",
];

/// Whether attribute `name` (canonical or alias) of a `kind` join point
/// needs the program's [`Semantics`]; hosts build it only for these.
pub fn uses_semantics(kind: &str, name: &str) -> bool {
    if catalogue::kind(kind).is_some_and(|k| k.name == "call")
        && catalogue::kind(kind)
            .and_then(|k| k.attribute(name))
            .is_some_and(|a| a.name == "noreturn")
    {
        return true;
    }
    let Some(spec) = catalogue::kind(kind).filter(|k| TYPED_KINDS.contains(&k.name)) else {
        return false;
    };
    spec.attribute(name)
        .is_some_and(|a| SEMANTIC_ATTRIBUTES.contains(&a.name))
}

/// Where a declared object lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Param,
    Local,
    Global,
    /// A use whose declaration was not found (or names no object).
    Unresolved,
}

/// The declaration of a `param` join point (a parameter declaration or a
/// K&R list identifier). It is looked up at the start of the body so that
/// a K&R declaration after the list (`int f(a) char *a; {…}`) refines it.
pub fn param_declaration<'s>(
    sema: &'s Semantics,
    file: &ParsedFile,
    index: usize,
    param: Node<'_>,
) -> Option<&'s Declaration> {
    let name = file.node_text(param_identifier(param)?);
    let body = function_of(param)?.child_by_field_name("body")?;
    sema.lookup(index, body.start_byte(), name)
        .filter(|d| d.kind == DeclKind::Parameter)
}

/// The declaration a `vardecl` join point (a declarator) makes.
pub fn vardecl_declaration<'s>(
    sema: &'s Semantics,
    index: usize,
    declarator: Node<'_>,
) -> Option<&'s Declaration> {
    sema.declaration_of(index, declarator_name(declarator)?)
        .filter(|d| d.kind == DeclKind::Variable)
}

/// The scope a use's declaration puts it in: only variables and parameters
/// are objects with a place; enum constants and functions are not.
pub fn scope_of(decl: Option<&Declaration>) -> Scope {
    match decl {
        Some(d) if d.kind == DeclKind::Parameter => Scope::Param,
        Some(d) if d.kind == DeclKind::Variable && d.is_file_scope => Scope::Global,
        Some(d) if d.kind == DeclKind::Variable => Scope::Local,
        _ => Scope::Unresolved,
    }
}

/// A type or place attribute of a declared object whose declaration is
/// `decl` (`None`: unresolved) and whose scope is `scope`. `None` when `name`
/// is not one of these attributes.
pub fn typed_attribute(
    sema: Option<&Semantics>,
    decl: Option<&Declaration>,
    scope: Scope,
    name: &str,
) -> Option<Value> {
    let ty = decl.map(|d| &d.ty).filter(|t| !t.is_unknown());
    let shape = |test: fn(&weft_c::sema::CType) -> bool| Value::Bool(ty.is_some_and(test));
    Some(match name {
        "type" => decl.map_or(Value::Null, |d| Value::Str(d.written.clone())),
        "scalar_type" => ty
            .and_then(|t| t.scalar_spelling())
            .map_or(Value::Null, Value::Str),
        "type_known" => Value::Bool(ty.is_some()),
        "is_param" => Value::Bool(scope == Scope::Param),
        "is_global" => Value::Bool(scope == Scope::Global),
        "is_local" => Value::Bool(scope == Scope::Local),
        "is_primitive" => shape(|t| t.is_primitive()),
        "is_pointer" => shape(|t| t.is_pointer()),
        "is_array" => shape(|t| t.is_array()),
        "is_struct" => shape(|t| t.is_struct()),
        "is_const" => shape(|t| t.is_const),
        "is_volatile" => shape(|t| t.is_volatile),
        "storage_class" => decl.map_or(Value::Null, |d| storage_keyword(d.storage)),
        "target_type" => members::target_type(ty),
        "fields" => members::fields(sema, ty),
        _ => return None,
    })
}

fn storage_keyword(storage: StorageClass) -> Value {
    let word = match storage {
        StorageClass::None => return Value::Null,
        StorageClass::Static => "static",
        StorageClass::Extern => "extern",
        StorageClass::Auto => "auto",
        StorageClass::Register => "register",
        StorageClass::ThreadLocal => "_Thread_local",
    };
    Value::Str(word.to_string())
}

/// The `param` or `vardecl` join point of a declaration, or null when it is
/// not a variable or parameter of one of the program's files (a header's
/// `extern`, an enum constant, a function).
pub fn declaration_join_point(files: &[ParsedFile], decl: &Declaration) -> Value {
    let DeclSite::File(index) = decl.site else {
        return Value::Null;
    };
    if !matches!(decl.kind, DeclKind::Variable | DeclKind::Parameter) {
        return Value::Null;
    }
    files
        .get(index)
        .and_then(|file| declarator_join_point(file, index, decl))
        .map_or(Value::Null, Value::JoinPoint)
}

/// Climbs from the declared identifier to the node `select` yields for it.
fn declarator_join_point(file: &ParsedFile, index: usize, decl: &Declaration) -> Option<JoinPoint> {
    let tree = file.tree_at(decl.range.start);
    let ident = tree
        .root_node()
        .descendant_for_byte_range(decl.range.start, decl.range.end)
        .filter(|n| n.byte_range() == decl.range)?;
    let mut n = ident;
    while let Some(parent) = n.parent() {
        if n.kind() == "parameter_declaration"
            || (parent.kind() == "parameter_list" && n.kind() == "identifier")
        {
            return Some(handle("param", index, n));
        }
        if parent.kind() == "declaration" && field_in_parent(n) == Some("declarator") {
            let grand = parent.parent();
            return match grand.filter(|g| g.kind() == "function_definition") {
                // A K&R declaration types a parameter of the list.
                Some(function) => parameters(file, function)
                    .into_iter()
                    .find(|p| p.kind() == "identifier" && file.node_text(*p) == decl.name)
                    .map(|p| handle("param", index, p)),
                None => Some(handle("vardecl", index, n)),
            };
        }
        if matches!(
            parent.kind(),
            "function_definition" | "compound_statement" | "translation_unit"
        ) {
            return None;
        }
        n = parent;
    }
    None
}
