//! weft: a source-to-source C instrumentation weaver.
//!
//! The workspace's crates are its layers, lowest first; a crate imports
//! only from the ones below it, so an upward import is a compile error:
//!
//! | crate | owns |
//! |---|---|
//! | `weft-text` | byte-range edits, splicing, lines and columns |
//! | `weft-c` | the macro-aware C front end ([`c`]) and symbols and types ([`sema`]) |
//! | `weft-lang` | the aspect language ([`aspect`]), join point vocabulary, interpreter ([`engine`]), diagnostics ([`diag`]) |
//! | `weft-weave` | join points in C ([`joinpoint`]), edits ([`edit`]), the program being woven ([`program`]), passes ([`transform`]), the woven tree ([`output`]) |
//! | `weft-monitor` | monitors' C runtimes, their records and readers ([`ranges`]) |
//! | `weft-run` | running programs under limits, progress ([`run`]) |
//! | `weft-study` | fault-detection studies ([`experiment`]) |
//! | `weft` (this crate) | the command line ([`cli`]) |
//!
//! This crate re-exports each layer under the module name it is known by
//! in the docs (`weft::c`, `weft::engine`, …). See ARCHITECTURE.md.

pub mod cli;

pub use weft_c as c;
pub use weft_c::sema;
pub use weft_lang::{Limits, aspect, diag, engine, limits};
pub use weft_monitor as monitor;
pub use weft_monitor::ranges;
pub use weft_run as run;
pub use weft_study as experiment;
pub use weft_text as text;
pub use weft_weave::{edit, joinpoint, output, program, transform};
