//! The join point model: what an aspect can select in C code and what it can
//! ask about it. The catalogue of kinds and attributes is the single source of
//! truth for `weft joinpoints`, docs/joinpoints.md and the interpreter's
//! name checking.

pub mod catalogue;

pub use catalogue::{AttrType, AttributeSpec, KindSpec, attribute_names, kind, kinds, suggest};

use std::ops::Range;

/// A handle to one join point of the program as it is now. Handles are valid
/// until the program text changes (the end of the apply that edits it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JoinPoint {
    /// Canonical kind name from the catalogue (`"function"`, `"var"`, …).
    pub kind: &'static str,
    /// Index of the file in the program; `None` for the `program` join point.
    pub file: Option<usize>,
    /// Byte range of the underlying node in the file's parsed view.
    pub range: Range<usize>,
    /// tree-sitter node kind id of the underlying node (disambiguates nodes
    /// that share a range).
    pub node_kind: u16,
}

/// The value of an attribute, or of an argument passed to an action.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    JoinPoint(JoinPoint),
    List(Vec<Value>),
}
