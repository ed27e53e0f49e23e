//! What an invariant arm's instrumentation can see at all: per faulty
//! version, the failing runs whose traces differ from the original's on
//! the same test (the values at the points, which points were reached and
//! how often). A version none of whose failing runs differs (and none
//! crashed) is out of reach of any detector over these traces, whatever
//! its scoring: it bounds detection from above (a per-test oracle would
//! catch exactly the others).
//!
//! Runs are compared as multisets of samples, each sample its point and
//! its values. What differs between two runs of one binary anyway is left
//! out: nonces, and addresses (a pointer counts as null or not). A point
//! is named by its unit, function and kind, and its rank among that
//! function's points of that kind in line order: a fault that adds lines
//! above a point does not rename it (its line is the line in the text the
//! aspect edits, after its own edits above it, so no diff of the sources
//! maps it). A fault that adds or removes a point of a function (a
//! return, a branch) renames the function's later points of that kind:
//! their samples then differ from the original's wherever the function is
//! reached, which overstates what the traces see of that version.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use rayon::prelude::*;
use serde::Serialize;
use weft_invariants::Value;
use weft_monitor::trace::PointDecl;

use super::matrix::{FaultMatrix, Observation};
use super::run_records::read_traces;

/// One faulty version's failing runs as its traces show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersionReach {
    pub version: String,
    /// Failing runs (the oracle's), and of them those that crashed, hung or
    /// overflowed their output under the monitor.
    pub failing: usize,
    pub failing_abnormal: usize,
    /// Failing runs that ended normally with traces that differ from the
    /// original's on the same test.
    pub failing_differ: usize,
    /// Passing runs whose traces differ (the fault changed state, not output).
    pub passing_differ: usize,
}

impl VersionReach {
    /// Whether any detector over these traces could flag one of its
    /// failing runs (given the original's trace of each test).
    pub fn reachable(&self) -> bool {
        self.failing_abnormal + self.failing_differ > 0
    }
}

/// The reach of one arm's traces (the strategies that share its runs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArmReach {
    /// The invariant strategies scored from these runs.
    pub strategies: Vec<String>,
    pub versions: Vec<VersionReach>,
}

impl ArmReach {
    /// Faulty versions some failing run of which differs or crashed.
    pub fn reachable(&self) -> usize {
        self.versions.iter().filter(|v| v.reachable()).count()
    }
}

/// Per version row of `observed` (row 0 the original, then the oracle's
/// versions), per test: the run's observation.
pub fn reach(
    strategies: Vec<String>,
    oracle: &FaultMatrix,
    observed: &[Vec<Observation>],
) -> anyhow::Result<ArmReach> {
    let original: Vec<Option<Vec<u64>>> = observed[0]
        .par_iter()
        .map(fingerprint)
        .collect::<anyhow::Result<_>>()?;
    let versions = oracle
        .versions
        .iter()
        .enumerate()
        .map(|(v, name)| {
            let row = &observed[v + 1];
            let differs: Vec<Option<bool>> = row
                .par_iter()
                .zip(&original)
                .map(|(o, orig)| {
                    let mine = fingerprint(o)?;
                    Ok(match (mine, orig) {
                        (Some(mine), Some(orig)) => Some(&mine != orig),
                        _ => None,
                    })
                })
                .collect::<anyhow::Result<_>>()?;
            let mut r = VersionReach {
                version: name.clone(),
                failing: 0,
                failing_abnormal: 0,
                failing_differ: 0,
                passing_differ: 0,
            };
            for (t, &passes) in oracle.cells[v].iter().enumerate() {
                let differ = differs[t] == Some(true);
                if passes {
                    r.passing_differ += usize::from(differ);
                    continue;
                }
                r.failing += 1;
                r.failing_abnormal += usize::from(row[t] == Observation::Abnormal);
                r.failing_differ += usize::from(differ);
            }
            Ok(r)
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(ArmReach { strategies, versions })
}

/// A run's traces as a sorted multiset of sample hashes; `None` for a run
/// that did not end normally (it has no comparable trace).
fn fingerprint(observed: &Observation) -> anyhow::Result<Option<Vec<u64>>> {
    let Observation::Trace(packed) = observed else {
        return Ok(None);
    };
    let mut hashes = Vec::new();
    for (_, trace) in read_traces(packed)? {
        let names = point_names(&trace.unit, &trace.points);
        hashes.extend(trace.samples.iter().map(|s| {
            let mut h = DefaultHasher::new();
            names[s.point].hash(&mut h);
            for (var, value) in trace.points[s.point].vars.iter().zip(&s.values) {
                var.name.hash(&mut h);
                comparable(value).hash(&mut h);
            }
            h.finish()
        }));
    }
    hashes.sort_unstable();
    Ok(Some(hashes))
}

/// Each point of `trace` named by what stays the same from version to
/// version: unit, function, kind, and its rank among the function's
/// points of that kind by line.
fn point_names(unit: &str, points: &[PointDecl]) -> Vec<String> {
    points
        .iter()
        .map(|p| {
            let rank = points
                .iter()
                .filter(|q| (&q.function, q.kind) == (&p.function, p.kind) && q.line < p.line)
                .count();
            format!("{unit}\t{}\t{}\t{rank}", p.function, p.kind.as_str())
        })
        .collect()
}

/// A value as runs of one binary agree on it: an address only as null or
/// not; floats by their bits.
fn comparable(value: &Value) -> String {
    match value {
        Value::Pointer(p) => format!("p{}", u8::from(*p != 0)),
        Value::Float(f) => format!("f{}", f.to_bits()),
        Value::FloatSeq(fs) => format!("F{:?}", fs.iter().map(|f| f.to_bits()).collect::<Vec<_>>()),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(function: &str, kind: weft_monitor::trace::PointKind, line: usize) -> PointDecl {
        PointDecl {
            function: function.into(),
            kind,
            line,
            vars: Vec::new(),
        }
    }

    #[test]
    fn points_keep_their_names_when_lines_move() {
        use weft_monitor::trace::PointKind::{Enter, Exit};
        let before = [
            point("f", Enter, 10),
            point("f", Exit, 30),
            point("f", Exit, 20),
            point("g", Exit, 5),
        ];
        let moved = [
            point("f", Enter, 12),
            point("f", Exit, 32),
            point("f", Exit, 22),
            point("g", Exit, 9),
        ];
        let names = point_names("u.c", &before);
        assert_eq!(names, point_names("u.c", &moved));
        assert_eq!(
            names,
            [
                "u.c\tf\tenter\t0",
                "u.c\tf\texit\t1",
                "u.c\tf\texit\t0",
                "u.c\tg\texit\t0"
            ]
        );
        assert_ne!(names, point_names("v.c", &before));
    }

    #[test]
    fn addresses_compare_as_null_or_not() {
        assert_eq!(
            comparable(&Value::Pointer(0x1000)),
            comparable(&Value::Pointer(0x2000))
        );
        assert_ne!(
            comparable(&Value::Pointer(0)),
            comparable(&Value::Pointer(0x2000))
        );
        assert_ne!(comparable(&Value::Int(1)), comparable(&Value::Int(2)));
    }
}
