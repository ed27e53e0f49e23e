//! Weaving: the program being woven ([`program`], the aspect engine's
//! host), its join points in C ([`joinpoint`]), the byte-range edits that
//! actions become ([`edit`]), MANET's transformation passes ([`transform`])
//! and the woven tree written out ([`output`]).

pub mod edit;
pub mod joinpoint;
pub mod output;
pub mod program;
pub mod transform;
