//! Monitors: C runtime text woven into each translation unit of a program,
//! the per-process records that runtime writes under `$WEFT_OUT`, and the
//! readers of those records. [`record`] is what every monitor shares: the
//! file naming, the common header and its reader; the C side is
//! `runtime/weft_out.h`. Range monitoring ([`ranges`]) is the first monitor;
//! [`trace`] records the values at program points that likely invariants
//! are learned from; [`nonterm`] watches loops for revisited states;
//! [`outputs`] captures named values as text, to compare revisions.

pub mod c_text;
pub mod nonterm;
pub mod outputs;
pub mod ranges;
pub mod record;
pub mod trace;
pub mod value;

use weft_lang::engine::ScriptApi;

/// Every monitor's aspect API (e.g. `RangeTables`), for the runs of
/// aspects that may use them.
pub const SCRIPT_APIS: &[ScriptApi] = &[
    ranges::aspect_api::register,
    trace::aspect_api::register,
    nonterm::aspect_api::register,
    outputs::aspect_api::register,
];
