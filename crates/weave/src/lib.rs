//! Weaving: an aspect's actions applied to a C program as byte-range edits.
//!
//! The API at the crate root is one whole weave in process: [`weave`] runs
//! a parsed aspect against a loaded program, [`weave_tree`] does it from a
//! source tree to a woven tree, with the [`Services`] of the layers above
//! (their script APIs, a loop analysis), giving [`Woven`] or a
//! [`WeaveError`]. It is what `weft weave` and every layer that weaves call.
//!
//! Five modules stay public, because each is a documented sub-API used on
//! its own by the CLI, by the layers above and by tests; each re-exports
//! its own small surface and keeps its files private:
//! - [`program`]: the program being woven, the aspect engine's host
//!   (`Program`), the transformation pipeline (`transform_text`) and the
//!   loop-analysis seam (`LoopAnalysis`) that `weft-loops` implements;
//! - [`joinpoint`]: the join point vocabulary in C — selection, attributes
//!   and the catalogue `weft joinpoints` prints;
//! - [`edit`]: the edit set actions become, and where an insertion goes
//!   (`edit::placement`);
//! - [`transform`]: MANET's transformation passes, by name;
//! - [`output`]: the woven tree written out — which files are mirrored,
//!   the claim marker that keeps weft from replacing a directory it did
//!   not write, diffs.

pub mod edit;
pub mod joinpoint;
pub mod output;
pub mod program;
pub mod transform;
mod weave;

pub use weave::{Services, WeaveError, Woven, weave, weave_tree};
