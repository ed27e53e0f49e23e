//! Text shared by every layer of weft: byte-range [`Edit`]s and [`splice`],
//! and the arithmetic from byte offsets to 1-based lines and columns
//! ([`LineIndex`], [`line_col`], [`Location`]).
//!
//! This crate is the leaf of the workspace: it depends on nothing, and
//! everything that computes a line or applies an edit comes here, so that
//! there is one answer to "which line is byte N on".

mod edit;
mod lines;
mod location;

pub use edit::{Edit, splice};
pub use lines::{LineIndex, line_col, line_start};
pub use location::Location;
