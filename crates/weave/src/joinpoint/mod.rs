//! Join points in C: selecting them in the parsed program ([`select`]) and
//! computing their attributes ([`attribute`]). The vocabulary (kinds,
//! attributes, actions, handles, values) is the aspect language's
//! (`weft_lang::model`), re-exported here.

mod assigned;
mod attribute;
mod callee;
mod cells;
mod dead_at_head;
mod extent;
mod loops;
mod members;
mod params;
mod select;
mod slice;
mod tree;
mod typed;
mod vars;
mod written;

pub use attribute::attribute;
/// Memory cells (`*p`, `a[K]`), for the loop analysis's fragment too.
pub use cells::{address_taken, always_evaluated, cell, surely_read};
pub use select::{select, select_part};
pub use tree::{node, tree_of};
pub use typed::uses_semantics;
pub use weft_lang::model::{
    AttrType, AttributeSpec, JoinPoint, KindSpec, Value, attribute_names, catalogue, kind, kinds, reference,
    selection_path, suggest,
};
