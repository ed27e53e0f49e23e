//! Fault-detection studies: build versions, run suites, learn and score ranges.
//!
//! A [`study::Study`] names program versions, monitoring strategies and a
//! test suite. The harness builds every (version, arm) pair in a scratch
//! copy ([`exec`]), runs every test under limits (`weft_run::execute`), makes the
//! reports some strategies' aspects read ([`report_stage`]), derives the
//! oracle fault matrix from output equality with the original
//! ([`oracle`]), learns ranges from P% of the original's training runs and
//! predicts range fault matrices ([`evaluate`]), scores them ([`metrics`],
//! versions detected within an alarm budget: [`detection`])
//! and writes the report's tables and figures ([`report`]).

pub mod cache;
pub mod collect;
pub mod detect_invariants;
pub mod detection;
pub mod driver;
pub mod evaluate;
pub mod exec;
pub mod fsops;
pub mod jobs;
pub mod matrix;
pub mod metrics;
pub mod oracle;
pub mod plot;
pub mod report;
pub mod report_stage;
pub mod run_records;
pub mod store;
pub mod study;
pub mod summary;
pub mod tables;
pub mod test_runs;
