//! Monitors: C runtime text woven into each translation unit of a program,
//! the per-process records that runtime writes under `$WEFT_OUT`, and the
//! readers of those records. [`record`] is what every monitor shares: the
//! file naming, the common header and its reader; the C side is
//! `runtime/weft_out.h`. Range monitoring ([`ranges`]) is the first monitor;
//! [`trace`] records the values at program points that likely invariants
//! are learned from; [`nonterm`] watches loops for revisited states;
//! [`outputs`] captures named values as text, to compare revisions. Each
//! implements [`Monitor`], the seam the weaver and the readers use.

pub mod c_text;
pub mod monitor;
pub mod nonterm;
pub mod outputs;
pub mod ranges;
pub mod record;
pub mod script;
pub mod trace;
pub mod value;

pub use monitor::{Monitor, MonitorVisitor, UnitText, for_each_monitor};
pub use record::ReadError;

use weft_lang::engine::ScriptApi;

/// Every monitor's aspect API (e.g. `RangeTables`), for the runs of
/// aspects that may use them; in [`for_each_monitor`] order.
pub const SCRIPT_APIS: &[ScriptApi] = &[
    ranges::Ranges::SCRIPT_API,
    trace::Traces::SCRIPT_API,
    nonterm::Nonterm::SCRIPT_API,
    outputs::Outputs::SCRIPT_API,
];
