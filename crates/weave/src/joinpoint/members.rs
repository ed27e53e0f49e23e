//! What a declared object holds one step away, for monitors that read
//! through it: the pointed-to or element type (`target_type`) and the
//! members of a struct or of the struct a pointer points to (`fields`).
//! Only facts `sema` resolved are answered; anything else is null, so a
//! monitor never reads what weft cannot type.

use weft_c::sema::{CType, Declaration, Semantics, TypeKind};

use super::Value;

/// `target_type`: the scalar spelling of what a pointer points to or of an
/// array's elements; null for anything else.
pub fn target_type(ty: Option<&CType>) -> Value {
    ty.and_then(CType::target)
        .and_then(CType::scalar_spelling)
        .map_or(Value::Null, Value::Str)
}

/// `fields`: the members of a struct, or of the struct a pointer points to,
/// as `[name, scalar_type, element_type]` lists. Empty for unions (their
/// members overlap: reading one that is not in use gives noise), for
/// anything that is not a struct and for structs whose definition was
/// not seen.
pub fn fields(sema: Option<&Semantics>, ty: Option<&CType>) -> Value {
    let none = Value::List(Vec::new());
    let Some((sema, ty)) = sema.zip(ty) else {
        return none;
    };
    let ty = if ty.is_pointer() { ty.target() } else { Some(ty) };
    let Some(ty) = ty.filter(|t| matches!(t.kind, TypeKind::Struct { union: false, .. })) else {
        return none;
    };
    let Some(def) = sema.struct_def(ty) else {
        return none;
    };
    Value::List(def.fields.iter().map(member).collect())
}

/// One member: its name, its scalar spelling (null when it is not a
/// scalar) and, for an array of known length, its elements' scalar
/// spelling (null otherwise, and for a flexible array member `a[]`, whose
/// length C does not know).
fn member(field: &Declaration) -> Value {
    let scalar = field.ty.scalar_spelling().map_or(Value::Null, Value::Str);
    let sized_array = field.ty.is_array() && !field.written.contains("[]");
    let element = if sized_array {
        target_type(Some(&field.ty))
    } else {
        Value::Null
    };
    Value::List(vec![Value::Str(field.name.clone()), scalar, element])
}
