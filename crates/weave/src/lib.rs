//! Weaving: the program being woven ([`program`], the aspect engine's
//! host), its join points in C ([`joinpoint`]), the byte-range edits that
//! actions become ([`edit`]), MANET's transformation passes ([`transform`])
//! and the woven tree written out ([`output`]); [`Services`] and one whole
//! weave in process (`weave()`), what `weft weave` and every layer that
//! weaves call.

pub mod edit;
pub mod joinpoint;
pub mod output;
pub mod program;
pub mod transform;
mod weave;

pub use weave::{Services, WeaveError, Woven, weave, weave_tree};
