//! Fault matrices (§4.1): one boolean per (version, test), `true` = passes.

use serde::Serialize;

use weft_monitor::ranges::RangeSet;
use weft_monitor::ranges::check::{Unseen, check};

/// A fault matrix over the faulty versions (rows here, columns in the
/// report) and the tests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaultMatrix {
    pub versions: Vec<String>,
    pub tests: Vec<String>,
    /// `cells[version][test]`.
    pub cells: Vec<Vec<bool>>,
}

impl FaultMatrix {
    /// All cells, version after version.
    pub fn flat(&self) -> Vec<bool> {
        self.cells.concat()
    }

    /// Writes the matrix as CSV: one row per test, one column per version,
    /// 1 for pass and 0 for fail (the layout of Figure 4.1).
    pub fn to_csv(&self) -> String {
        let mut out = format!("test,{}\n", self.versions.join(","));
        for (t, test) in self.tests.iter().enumerate() {
            out.push_str(test);
            for row in &self.cells {
                out.push_str(if row[t] { ",1" } else { ",0" });
            }
            out.push('\n');
        }
        out
    }
}

/// What a monitor saw in one test run.
#[derive(Debug, Clone, PartialEq)]
pub enum Observation {
    /// The run ended normally and left these ranges.
    Ranges(RangeSet),
    /// The run ended normally and left these traces, packed and
    /// compressed as the study database keeps them (parsed when checked:
    /// parsed, a study's traces are too big to hold at once).
    Trace(std::sync::Arc<[u8]>),
    /// The run ended normally, and checking its traces against the learned
    /// invariants as it finished found this (a faulty version's run of an
    /// invariant strategy keeps no traces).
    Checked(std::sync::Arc<super::findings::Findings>),
    /// The run crashed, hung or overflowed its output cap: any monitor
    /// notices that, so it is predicted to fail.
    Abnormal,
}

/// Predicts pass when the run violates no learned range
/// ([`weft_monitor::ranges::check`]): every reached variable stays inside its
/// learned bounds, and none was unreached in training (its learned range is
/// empty, so any value of it is a violation, as in MANET).
pub fn predict(learned: &RangeSet, observed: &Observation) -> bool {
    match observed {
        Observation::Abnormal => false,
        Observation::Ranges(ranges) => check(learned, ranges, Unseen::Violation).is_empty(),
        Observation::Trace(_) | Observation::Checked(_) => {
            unreachable!("a range strategy's run was loaded as an invariant strategy's")
        }
    }
}
