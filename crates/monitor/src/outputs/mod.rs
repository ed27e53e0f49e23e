//! Output capture, for comparing program revisions by what they compute:
//! named values a program records, each as deterministic text.
//!
//! Values come from annotations in the C code (`weft_output(NAME, VALUE)`)
//! and from the shipped aspect (`aspects/outputs.lara`: chosen functions'
//! returned values and what their pointer parameters point to at exit).
//! [`spec`] is the weaver's side (runtime text, capture statements);
//! [`aspect_api`] lets aspects use it (`OutputCaptures`); [`record`] reads
//! the `.outputs` records the runtime (`runtime/weft_outputs_*.h`) writes,
//! one per process and unit. See docs/outputs.md.

pub mod aspect_api;
pub mod monitor;
pub mod record;
pub mod spec;

pub use monitor::{Outputs, OutputsUnit};
pub use record::{OutputRecord, read_dir, read_record};
