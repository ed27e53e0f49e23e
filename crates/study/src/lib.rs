//! Fault-detection studies: build versions, run suites, learn and score ranges.
//!
//! A [`Study`] names program versions, monitoring strategies and a test
//! suite ([`Study::load`] reads one; [`Holdout`] is what the invariant
//! detector does with the findings of one half of a training subset). The harness builds every (version,
//! arm) pair in a scratch copy, runs every test under limits
//! (`weft_run::execute`), makes the reports some strategies' aspects read,
//! derives the oracle fault matrix from output equality with the original,
//! learns ranges from P% of the original's training runs, predicts range
//! fault matrices, scores them and writes the report's tables and figures.
//!
//! The API, all at the crate root:
//! - running a study: [`prepare`], then either [`run_local`] (every step in
//!   this process) or [`write_plan`] + [`run_step`] (one step per worker)
//!   + [`collect_only`]; a store left by another format is [`Unusable`];
//! - what the traces can see: [`reach_only`] reads the finished runs for
//!   what each invariant arm's traces show of the faults ([`ArmReach`],
//!   [`VersionReach`]; also in [`Results`]), which [`reach_table`] shows;
//! - reporting: [`write_report`] writes the report from the [`Results`] and
//!   [`CacheStats`];
//! - scoring, what the report is made of: [`evaluate`] and [`score`] turn
//!   [`OriginalRuns`] into an [`Evaluation`] per strategy along a
//!   [`Schedule`] (whose [`Judging`] says which learned sets judge the
//!   faulty versions' runs), one [`PercentResult`] per training percentage;
//!   [`FaultMatrix`], [`Observation`] and [`predict`] are the fault
//!   matrices; [`Confusion`], [`percentage_of_ones`], [`best_percentage`]
//!   and [`fmt_percent`] are the metrics; [`build_tables`] (each a
//!   [`Table`]), [`version_order`] and [`summary`] make the report's tables
//!   and sentence.
//!
//! One module stays public as its own sub-API: [`detection`], which
//! strategies detect which versions within an alarm budget (the rankings
//! the report and its readers share). Every other module is private.

mod cache;
mod collect;
mod detect_invariants;
pub mod detection;
mod driver;
mod evaluate;
mod exec;
mod findings;
mod fsops;
mod holdout_split;
mod jobs;
mod learned_sets;
mod matrix;
mod metrics;
mod oracle;
mod plot;
mod rarity;
mod report;
mod report_stage;
mod run_records;
mod store;
mod study;
mod summary;
mod tables;
mod test_runs;
mod trace_reach;

pub use cache::CacheStats;
pub use collect::Results;
pub use driver::{collect_only, prepare, reach_only, run_local, run_step, write_plan};
pub use evaluate::{Evaluation, Judging, OriginalRuns, PercentResult, Schedule, evaluate, score};
pub use matrix::{FaultMatrix, Observation, predict};
pub use metrics::{Confusion, best_percentage, fmt_percent, percentage_of_ones};
pub use report::write as write_report;
pub use store::Unusable;
pub use study::{Holdout, Study};
pub use summary::summary;
pub use tables::{Table, build as build_tables, reach_table, version_order};
pub use trace_reach::{ArmReach, VersionReach};
