//! The join point model the language speaks: the catalogue of kinds,
//! attributes and actions (the single source of truth for name checking,
//! `weft joinpoints` and docs/joinpoints.md), join point handles, and the
//! values attributes and action arguments take. How each attribute is
//! computed on C lives with the host, in the weaving crate.

pub mod catalogue;
pub mod reference;

pub use catalogue::{
    AttrType, AttributeSpec, KindSpec, attribute_names, kind, kinds, selection_path, suggest,
};

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
