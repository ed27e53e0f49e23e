//! What an invariant arm's instrumentation can see at all: per faulty
//! version, the failing runs whose traces differ from the original's on
//! the same test (the values at the points, which points were reached and
//! how often). A version none of whose failing runs differs (and none
//! crashed) is out of reach of any detector over these traces, whatever
//! its scoring: it bounds detection from above (a per-test oracle would
//! catch exactly the others). A narrower bound needs no per-test oracle:
//! the failing runs with a sample that none of the original's runs has,
//! on any test (what a detector that remembers every sample of the
//! original's runs could flag; a failing run that only recombines samples
//! of correct runs is beyond any detector that judges samples one by one).
//!
//! Runs are compared as multisets of samples, each sample its point and
//! its values. What differs between two runs of one binary anyway is left
//! out: nonces, and addresses (a pointer counts as null or not). A
//! version's point is named by the original's point it stands for: the
//! two units' point lists (each point as its function, kind and variable
//! names, in declaration order) are aligned by a diff, so a fault that
//! adds lines above a point, or a point of its own (an `if` that adds a
//! branch), does not rename the others. Lines cannot name points: they are
//! lines of the text the aspect edits, after its own edits above them.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
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
    /// Failing runs that ended normally with a sample (a point and its
    /// values) that none of the original's runs, on any test, has.
    pub failing_novel: usize,
    /// Passing runs whose traces differ (the fault changed state, not output).
    pub passing_differ: usize,
}

impl VersionReach {
    /// Whether any detector over these traces could flag one of its
    /// failing runs (given the original's trace of each test).
    pub fn reachable(&self) -> bool {
        self.failing_abnormal + self.failing_differ > 0
    }

    /// Whether a detector that knows every sample of the original's runs
    /// (and no test's own) could flag one of its failing runs: one crashed
    /// or has a sample no original run has.
    pub fn novel(&self) -> bool {
        self.failing_abnormal + self.failing_novel > 0
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

    /// Faulty versions some failing run of which has a sample no original
    /// run has, or crashed.
    pub fn novel(&self) -> usize {
        self.versions.iter().filter(|v| v.novel()).count()
    }
}

/// Per unit (as the weaver names it), the original's points' signatures.
type Units = HashMap<String, Vec<String>>;

/// Per version row of `observed` (row 0 the original, then the oracle's
/// versions), per test: the run's observation.
pub fn reach(
    strategies: Vec<String>,
    oracle: &FaultMatrix,
    observed: &[Vec<Observation>],
) -> anyhow::Result<ArmReach> {
    let mut units = Units::new();
    let original: Vec<Option<Vec<u64>>> = observed[0]
        .par_iter()
        .map(|o| fingerprint(o, None))
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .map(|run| {
            run.map(|(hashes, seen)| {
                units.extend(seen);
                hashes
            })
        })
        .collect();
    let seen: HashSet<u64> = original.iter().flatten().flatten().copied().collect();
    let versions = oracle
        .versions
        .iter()
        .enumerate()
        .map(|(v, name)| {
            let row = &observed[v + 1];
            let compared: Vec<Compared> = row
                .par_iter()
                .zip(&original)
                .map(|(o, orig)| {
                    let Some((mine, _)) = fingerprint(o, Some(&units))? else {
                        return Ok(Compared::default());
                    };
                    Ok(Compared {
                        differs: orig.as_ref().is_some_and(|orig| &mine != orig),
                        novel: mine.iter().any(|h| !seen.contains(h)),
                    })
                })
                .collect::<anyhow::Result<_>>()?;
            Ok(count(name, &oracle.cells[v], row, &compared))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(ArmReach { strategies, versions })
}

/// How a version's run compares with the original's runs.
#[derive(Default)]
struct Compared {
    /// Its traces differ from the original's on the same test.
    differs: bool,
    /// It has a sample none of the original's runs has.
    novel: bool,
}

/// One version's counts, from its oracle row, its runs and how they
/// compare with the original's.
fn count(name: &str, passes: &[bool], row: &[Observation], compared: &[Compared]) -> VersionReach {
    let mut r = VersionReach {
        version: name.to_string(),
        failing: 0,
        failing_abnormal: 0,
        failing_differ: 0,
        failing_novel: 0,
        passing_differ: 0,
    };
    for (t, &passes) in passes.iter().enumerate() {
        if passes {
            r.passing_differ += usize::from(compared[t].differs);
            continue;
        }
        r.failing += 1;
        r.failing_abnormal += usize::from(row[t] == Observation::Abnormal);
        r.failing_differ += usize::from(compared[t].differs);
        r.failing_novel += usize::from(compared[t].novel);
    }
    r
}

/// A run's traces as a sorted multiset of sample hashes, and its units'
/// point signatures; `None` for a run that did not end normally (it has
/// no comparable trace). With `original`, points are named by the
/// original's points they align with; without, by their own.
fn fingerprint(
    observed: &Observation,
    original: Option<&Units>,
) -> anyhow::Result<Option<(Vec<u64>, Units)>> {
    let Observation::Trace(packed) = observed else {
        return Ok(None);
    };
    let mut hashes = Vec::new();
    let mut units = Units::new();
    for (_, trace) in read_traces(packed)? {
        let signatures: Vec<String> = trace.points.iter().map(signature).collect();
        let names = match original {
            None => (0..signatures.len()).map(|i| i.to_string()).collect(),
            Some(units) => aligned(units.get(&trace.unit).map_or(&[][..], |o| &o[..]), &signatures),
        };
        hashes.extend(trace.samples.iter().map(|s| {
            let mut h = DefaultHasher::new();
            (&trace.unit, &names[s.point]).hash(&mut h);
            for (var, value) in trace.points[s.point].vars.iter().zip(&s.values) {
                var.name.hash(&mut h);
                comparable(value).hash(&mut h);
            }
            h.finish()
        }));
        units.insert(trace.unit, signatures);
    }
    hashes.sort_unstable();
    Ok(Some((hashes, units)))
}

/// What names a point apart from its line: function, kind, variables.
fn signature(p: &PointDecl) -> String {
    let vars: Vec<&str> = p.vars.iter().map(|v| v.name.as_str()).collect();
    format!("{}\t{}\t{}", p.function, p.kind.as_str(), vars.join(","))
}

/// Each of a version's points named by the index of the original's point
/// it aligns with (a diff of the two signature lists), or as a new point.
fn aligned(original: &[String], version: &[String]) -> Vec<String> {
    let mut names: Vec<String> = (0..version.len()).map(|i| format!("new {i}")).collect();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, original, version) {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for i in 0..len {
                names[new_index + i] = (old_index + i).to_string();
            }
        }
    }
    names
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

    fn point(function: &str, kind: weft_monitor::trace::PointKind, line: usize) -> String {
        signature(&PointDecl {
            function: function.into(),
            kind,
            line,
            vars: Vec::new(),
        })
    }

    #[test]
    fn points_keep_their_names_when_lines_move_and_points_are_added() {
        use weft_monitor::trace::PointKind::{Enter, Exit, Inner};
        let original = [
            point("f", Enter, 10),
            point("f", Inner, 12),
            point("f", Exit, 20),
            point("g", Exit, 30),
        ];
        // Two lines above f, and a branch point added in f.
        let version = [
            point("f", Enter, 12),
            point("f", Inner, 13),
            point("f", Inner, 14),
            point("f", Exit, 23),
            point("g", Exit, 33),
        ];
        assert_eq!(aligned(&original, &version), ["0", "1", "new 2", "2", "3"]);
        assert_eq!(aligned(&original, &original), ["0", "1", "2", "3"]);
        assert_eq!(aligned(&[], &original[..1]), ["new 0"]);
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
