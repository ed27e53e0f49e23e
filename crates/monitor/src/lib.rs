//! Monitors: C runtime text woven into each translation unit of a program,
//! the per-process records that runtime writes under `$WEFT_OUT`, and the
//! readers of those records.
//!
//! The API at the crate root is what every monitor shares: the
//! [`Monitor`] trait (its record format, its runtime text, its script
//! API), the seam the weaver and the readers use, with [`UnitText`],
//! [`MonitorVisitor`] and [`for_each_monitor`] to visit them all;
//! [`SCRIPT_APIS`], every monitor's aspect functions for the engine;
//! [`RecordFormat`], the file naming and common header of records (the C
//! side is `runtime/weft_out.h`), with the one reader error
//! [`ReadError`] and a malformed record's [`RecordError`]; and
//! [`VarKind`], the C value kinds monitors record.
//!
//! Each monitor is a public module of its own, because each is a
//! documented sub-API — its spec (what the aspect asks for), its record
//! and its reader, used by the layers above and by tests of the woven
//! programs:
//! - [`ranges`]: range monitoring, the first monitor (learn, check, diff);
//! - [`trace`]: the values at program points that likely invariants are
//!   learned from;
//! - [`nonterm`]: loops watched for revisited states;
//! - [`outputs`]: named values captured as text, to compare revisions.
//!
//! The shared C text helpers and script-value helpers are private.

mod c_text;
mod monitor;
pub mod nonterm;
pub mod outputs;
pub mod ranges;
mod record;
mod script;
pub mod trace;
mod value;

pub use monitor::{Monitor, MonitorVisitor, UnitText, for_each_monitor};
pub use record::{Format as RecordFormat, ReadError, RecordError};
pub use value::VarKind;

use weft_lang::engine::ScriptApi;

/// Every monitor's aspect API (e.g. `RangeTables`), for the runs of
/// aspects that may use them; in [`for_each_monitor`] order.
pub const SCRIPT_APIS: &[ScriptApi] = &[
    ranges::Ranges::SCRIPT_API,
    trace::Traces::SCRIPT_API,
    nonterm::Nonterm::SCRIPT_API,
    outputs::Outputs::SCRIPT_API,
];
