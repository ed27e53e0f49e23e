//! The join point model: what an aspect can select in C code and what it can
//! ask about it. The catalogue of kinds and attributes is the single source of
//! truth for `weft joinpoints`, docs/joinpoints.md and the interpreter's
//! name checking.

mod attribute;
pub mod catalogue;
mod loops;
mod params;
pub mod reference;
mod select;
mod tree;
mod typed;
mod vars;

pub use attribute::attribute;
pub use catalogue::{AttrType, AttributeSpec, KindSpec, attribute_names, kind, kinds, suggest};
pub use select::select;
pub use tree::node;
pub use typed::uses_semantics;

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

impl JoinPoint {
    /// The `program` join point: the root of every selection.
    pub fn program() -> JoinPoint {
        JoinPoint {
            kind: "program",
            file: None,
            range: 0..0,
            node_kind: 0,
        }
    }
}
