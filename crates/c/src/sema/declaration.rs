//! What weft knows about one declared name.

use std::ops::Range;
use std::path::PathBuf;

use super::ctype::CType;
use super::spelling::TypeSpelling;

/// What kind of entity a name denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    Variable,
    Parameter,
    Function,
    Typedef,
    EnumConstant,
    /// A struct or union member.
    Field,
}

/// The storage class written in the declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StorageClass {
    #[default]
    None,
    Static,
    Extern,
    Auto,
    Register,
    ThreadLocal,
}

impl StorageClass {
    /// The storage class named by a `storage_class_specifier` keyword.
    pub fn from_keyword(word: &str) -> StorageClass {
        match word {
            "static" => StorageClass::Static,
            "extern" => StorageClass::Extern,
            "auto" => StorageClass::Auto,
            "register" => StorageClass::Register,
            "_Thread_local" | "__thread" | "thread_local" => StorageClass::ThreadLocal,
            _ => StorageClass::None,
        }
    }
}

/// Where a declaration is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclSite {
    /// One of the program's files, by index into the files given to
    /// [`crate::sema::Semantics::build`].
    File(usize),
    /// A project header reached through `#include "…"`.
    Header(PathBuf),
}

/// One declared name.
#[derive(Debug, Clone)]
pub struct Declaration {
    pub name: String,
    pub kind: DeclKind,
    pub storage: StorageClass,
    /// Resolved type (for a function: [`crate::sema::TypeKind::Function`]).
    pub ty: CType,
    /// Declared at file scope (a global, a function, a file-scope typedef).
    pub is_file_scope: bool,
    pub site: DeclSite,
    /// Byte range of the declared identifier in the parsed view of `site`.
    pub range: Range<usize>,
    /// 1-based line of the identifier.
    pub line: usize,
    /// How to declare another object of this type (for a function: of its
    /// return type), or `None` when it cannot be spelled safely (anonymous
    /// struct bodies, qualifiers on the object itself, macro text).
    pub spelling: Option<TypeSpelling>,
    /// The declared type as written, without the name, storage class or
    /// initializer (`const char *[4]`, `ush`); a struct, union or enum body
    /// is abbreviated to `{…}`.
    pub written: String,
    /// For a function: the identifiers written around its declarator
    /// (specifiers, attributes, attribute macros), from which
    /// [`crate::sema::Semantics::is_noreturn`] decides; empty otherwise.
    pub(crate) attribute_words: Vec<String>,
    /// Offset from which the name is visible in its scope (end of the
    /// declarator); 0 for names coming from headers.
    pub(crate) visible_from: usize,
}
