//! Non-termination monitoring: each monitored loop checks, at every
//! evaluation of its condition, whether its state (the variables that
//! decide its exits, see the `state` loop attribute) repeats, with Brent's
//! cycle detection, and reports a revisit; a loop woven with a sufficient
//! recurrence condition (the `src` loop attribute) is also reported as
//! soon as that condition holds at its head.
//!
//! [`harness`] runs SV-COMP-style programs concretely. [`spec`] is the
//! weaver's side (one [`NontermSpec`] per woven unit);
//! [`aspect_api`] lets aspects build specs (`NontermMonitors`); [`record`]
//! reads the `.nonterm` report files the runtime
//! (`runtime/weft_nonterm_*.h`) writes. See docs/nonterm.md.

pub mod aspect_api;
pub mod harness;
pub mod monitor;
pub mod record;
pub mod spec;

pub use monitor::Nonterm;
pub use record::{Report, ReportFile, Verdict, read_all, read_reports};
pub use spec::{LoopDecl, LoopTexts, NontermSpec, Policy, Schedule};
