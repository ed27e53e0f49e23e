//! Fault-detection studies: build versions, run suites, learn and score ranges.
