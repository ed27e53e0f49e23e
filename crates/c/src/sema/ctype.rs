//! Resolved C types, as far as weft needs them: enough to tell a scalar from
//! a pointer, an array or a struct, and to see qualifiers. Anything weft could
//! not resolve is [`TypeKind::Unknown`], which every client must treat as
//! "do not touch".

/// The shape of a type after typedefs have been resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeKind {
    /// `void`.
    Void,
    /// An integer type (`char`, `short`, `int`, `long`, `long long`, with or
    /// without sign), spelled canonically (`"unsigned long"`).
    Integer(String),
    /// `float`, `double`, `long double`.
    Floating(String),
    /// `_Bool` (and `bool` from `<stdbool.h>`).
    Bool,
    /// An enumeration, by tag when it has one.
    Enum(Option<String>),
    /// A pointer to the inner type.
    Pointer(Box<CType>),
    /// An array of the inner type (size not tracked).
    Array(Box<CType>),
    /// A struct or union value. `def` indexes [`crate::sema::Semantics`]'s
    /// struct definitions when the definition was seen.
    Struct {
        tag: Option<String>,
        union: bool,
        def: Option<usize>,
    },
    /// A function returning the inner type.
    Function(Box<CType>),
    /// A type weft knows exists but does not model (`va_list`, `jmp_buf`).
    Opaque(String),
    /// Could not be resolved (unknown typedef, macro, parse error).
    Unknown,
}

/// A type with its top-level qualifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CType {
    pub kind: TypeKind,
    pub is_const: bool,
    pub is_volatile: bool,
}

impl CType {
    /// An unqualified type of the given kind.
    pub fn new(kind: TypeKind) -> CType {
        CType {
            kind,
            is_const: false,
            is_volatile: false,
        }
    }

    /// The unresolvable type.
    pub fn unknown() -> CType {
        CType::new(TypeKind::Unknown)
    }

    /// The same type with `const`/`volatile` added.
    pub fn qualified(mut self, is_const: bool, is_volatile: bool) -> CType {
        self.is_const |= is_const;
        self.is_volatile |= is_volatile;
        self
    }

    /// Integer, floating, enum or `_Bool`: what range monitoring can record.
    pub fn is_primitive(&self) -> bool {
        matches!(
            self.kind,
            TypeKind::Integer(_) | TypeKind::Floating(_) | TypeKind::Bool | TypeKind::Enum(_)
        )
    }

    /// The type as a standard C scalar spelling, after typedefs:
    /// `unsigned long`, `double`, `_Bool`, `int` for an enumeration and
    /// `void *` for any pointer; `None` for anything else (and `Unknown`).
    pub fn scalar_spelling(&self) -> Option<String> {
        Some(match &self.kind {
            TypeKind::Integer(s) | TypeKind::Floating(s) => s.clone(),
            TypeKind::Bool => "_Bool".to_string(),
            TypeKind::Enum(_) => "int".to_string(),
            TypeKind::Pointer(_) => "void *".to_string(),
            _ => return None,
        })
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self.kind, TypeKind::Pointer(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self.kind, TypeKind::Array(_))
    }

    /// A struct or union value (not a pointer to one).
    pub fn is_struct(&self) -> bool {
        matches!(self.kind, TypeKind::Struct { .. })
    }

    pub fn is_function(&self) -> bool {
        matches!(self.kind, TypeKind::Function(_))
    }

    pub fn is_void(&self) -> bool {
        matches!(self.kind, TypeKind::Void)
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self.kind, TypeKind::Unknown)
    }

    /// The pointed-to type of a pointer, the element type of an array.
    pub fn target(&self) -> Option<&CType> {
        match &self.kind {
            TypeKind::Pointer(inner) | TypeKind::Array(inner) => Some(inner),
            _ => None,
        }
    }

    /// The return type of a function type.
    pub fn return_type(&self) -> Option<&CType> {
        match &self.kind {
            TypeKind::Function(ret) => Some(ret),
            _ => None,
        }
    }

    /// Whether any level reachable without dereferencing a pointer, or the
    /// pointed-to object of a pointer, is volatile: an access through this
    /// type may have an observable effect.
    pub fn touches_volatile(&self) -> bool {
        self.is_volatile || self.target().is_some_and(CType::touches_volatile)
    }
}

/// The arithmetic type an object-like macro used as a type name stands for
/// (`#define ushort unsigned short`): its one definition (several mean
/// the configuration decides) must be keywords of such a type.
pub fn macro_type(defs: &[crate::MacroDef]) -> Option<CType> {
    let [def] = defs else {
        return None;
    };
    let tokens = crate::lexer::tokenize(&def.body);
    let words: Vec<&str> = tokens.iter().map(|t| t.text(&def.body)).collect();
    if def.params.is_some() || words.is_empty() {
        return None;
    }
    arithmetic_kind(&words).map(CType::new)
}

/// Canonical spelling of a combination of C integer/floating keywords
/// (`"long unsigned int"` → `Integer("unsigned long")`), or `None` when the
/// words do not form an arithmetic type.
pub fn arithmetic_kind(words: &[&str]) -> Option<TypeKind> {
    let count = |w: &str| words.iter().filter(|x| **x == w).count();
    let unsigned = count("unsigned") > 0;
    let longs = count("long");
    if count("_Bool") > 0 || count("bool") > 0 {
        return Some(TypeKind::Bool);
    }
    if count("float") > 0 {
        return Some(TypeKind::Floating("float".into()));
    }
    if count("double") > 0 {
        let name = if longs > 0 { "long double" } else { "double" };
        return Some(TypeKind::Floating(name.into()));
    }
    let base = if count("char") > 0 {
        "char"
    } else if count("short") > 0 {
        "short"
    } else if longs >= 2 {
        "long long"
    } else if longs == 1 {
        "long"
    } else if count("int") > 0 || unsigned || count("signed") > 0 {
        "int"
    } else {
        return None;
    };
    let name = if unsigned {
        format!("unsigned {base}")
    } else if base == "char" && count("signed") > 0 {
        "signed char".to_string()
    } else {
        base.to_string()
    };
    Some(TypeKind::Integer(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_words_are_canonicalised() {
        assert_eq!(
            arithmetic_kind(&["long", "unsigned", "int"]),
            Some(TypeKind::Integer("unsigned long".into()))
        );
        assert_eq!(
            arithmetic_kind(&["long", "double"]),
            Some(TypeKind::Floating("long double".into()))
        );
        assert_eq!(
            arithmetic_kind(&["unsigned"]),
            Some(TypeKind::Integer("unsigned int".into()))
        );
        assert_eq!(arithmetic_kind(&["void"]), None);
    }

    #[test]
    fn volatile_reaches_through_pointers() {
        let v = CType::new(TypeKind::Integer("int".into())).qualified(false, true);
        let p = CType::new(TypeKind::Pointer(Box::new(v)));
        assert!(p.touches_volatile());
        assert!(!p.is_volatile);
    }
}
