//! Text edits: byte-range insertions and replacements on a file's text,
//! ordered, checked for overlap, and placed where they make legal C.
//!
//! [`placement`] turns an `insert` action on a tree node into [`Op`]s;
//! an [`EditSet`] collects a file's ops, rejects conflicting ones as they
//! arrive, and applies them in one sorted splice pass.

mod edit_set;
mod layout;
pub mod placement;
mod positions;
mod texts;

pub use edit_set::{EditError, EditSet, Insertion, Layer, Op, Side};
pub use weft_text::{Edit, Location, splice};
