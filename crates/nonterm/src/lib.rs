//! Non-termination found by running: [`check`] weaves the loop monitor
//! (aspects/nonterm.lara, `weft_monitor::nonterm`) into a program in
//! process, builds it, runs it under `weft_run`'s limits and gathers the
//! loops its runs reported. The static side, recurrence conditions, is
//! `weft_loops`.

mod check;
pub mod dictionary;
pub mod presets;

pub use check::{Ending, LoopFinding, MOST_RUNS, Options, Outcome, check};
