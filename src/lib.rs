//! weft: a source-to-source C instrumentation weaver.
//!
//! Data flows one way: aspect text is parsed by [`aspect`] and run by
//! [`engine`]; C text is parsed by [`c`] (macro-aware, on raw source) and
//! exposed as join points by [`joinpoint`]; actions become byte-range edits
//! ([`edit`]) on the [`program`]'s current text; [`output`] writes the woven
//! tree. See ARCHITECTURE.md for the map and the invariants.

pub mod aspect;
pub mod c;
pub mod cli;
pub mod diag;
pub mod edit;
pub mod engine;
pub mod experiment;
pub mod joinpoint;
pub mod output;
pub mod program;
pub mod ranges;
pub mod sema;
pub mod transform;
