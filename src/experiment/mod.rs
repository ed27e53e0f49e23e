//! Fault-detection studies: build versions, run suites, learn and score ranges.
//!
//! A [`study::Study`] names program versions, monitoring strategies and a
//! test suite. The harness builds every (version, strategy) pair in a
//! scratch copy, runs every test, derives the oracle fault matrix from
//! output equality with the original, learns ranges from P% of the
//! original's training runs, predicts a range fault matrix and scores it
//! with the metrics of [`metrics`].

pub mod evaluate;
pub mod matrix;
pub mod metrics;
pub mod records;
pub mod study;
pub mod tables;
