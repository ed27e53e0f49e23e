//! What an invariant arm's instrumentation can see at all: per faulty
//! version, the failing runs whose traces differ from the original's on
//! the same test (the values at the points, which points were reached and
//! how often). A version none of whose failing runs differs (and none
//! crashed) is out of reach of any detector over these traces, whatever
//! its scoring: it bounds detection from above (a per-test oracle would
//! catch exactly the others). A narrower bound needs no per-test oracle:
//! the failing runs that reach a point, or see a value of a variable at a
//! point, that none of the original's runs did, on any test (what a
//! detector that remembers every value the original's runs showed could
//! flag; a failing run that only recombines values of correct runs is
//! beyond any detector that judges values one by one, as ranges and
//! `one of` invariants do).
//!
//! Two runs differ when a point was reached a different number of times,
//! or a variable took another multiset of values at a point. What differs
//! between two runs of one binary anyway is left out: nonces, addresses (a
//! pointer counts as null or not), and the (point, variable) pairs that
//! differ on passing runs of every version ([`reach`]). A
//! version's point is named by the original's point it stands for: the
//! two units' point lists (each point as its function, kind and variable
//! names, in declaration order) are aligned by a diff, so a fault that
//! adds lines above a point, or a point of its own (an `if` that adds a
//! branch), does not rename the others. Lines cannot name points: they are
//! lines of the text the aspect edits, after its own edits above them.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use std::path::PathBuf;

use anyhow::bail;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use weft_invariants::Value;
use weft_monitor::trace::{PointDecl, TraceFile};

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
    /// Failing runs that ended normally and reached a point, or saw a
    /// value of a variable at a point, that none of the original's runs
    /// did, on any test.
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

    /// Whether a detector that knows every value of the original's runs
    /// (and no test's own) could flag one of its failing runs: one crashed
    /// or has a value no original run has.
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
    /// The (point, variable) pairs left out as noise: their values
    /// differed from the original's on passing runs of every version
    /// (`function kind variable (unit:line)`, the line in the edited text).
    pub unstable: Vec<String>,
    /// The original's runs that ended normally, and those with a value
    /// no other run of the original has: the alarms a detector flagging
    /// every value it never saw would raise on the original's unseen
    /// runs, trained on all the others (leave one out).
    pub original_runs: usize,
    pub original_novel: usize,
}

impl ArmReach {
    /// Faulty versions some failing run of which differs or crashed.
    pub fn reachable(&self) -> usize {
        self.versions.iter().filter(|v| v.reachable()).count()
    }

    /// Faulty versions some failing run of which has a value no original
    /// run has, or crashed.
    pub fn novel(&self) -> usize {
        self.versions.iter().filter(|v| v.novel()).count()
    }
}

/// Per unit (as the weaver names it), the original's points' signatures.
type Units = HashMap<String, Vec<String>>;

/// A run as compared: per (point, variable) key, a digest of the values
/// the variable took there (a multiset), and per point key how often it
/// was reached.
type Digests = HashMap<u64, u64>;

/// What one faulty version's run of an invariant arm shows, found from
/// the same reading of its traces that checks them ([`Original::compare`])
/// and stored with its findings: enough to count it in [`reach`] once
/// every run is in, without its traces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReach {
    /// The point and (point, variable) keys whose digests differ from
    /// those of the original's run on the same test (or that one lacks).
    pub differing: Vec<u64>,
    /// It reached a point that none of the original's runs reached.
    pub novel_point: bool,
    /// The (point, variable) keys at which it saw a value that none of
    /// the original's runs saw there.
    pub novel_keys: Vec<u64>,
}

/// What the original's runs of an invariant arm show, read once from
/// their traces: what each faulty version's run is compared with as it is
/// checked, and the original's own leave-one-out novelty.
pub struct Original {
    units: Units,
    /// Per test, the original's run's digests (none when it did not end
    /// normally).
    digests: Vec<Option<Digests>>,
    /// Every point and (point, variable, value) of the original's runs,
    /// and the one run that shows it (none: two or more do).
    seen: HashMap<u64, Option<(usize, Option<u64>)>>,
    /// The names of the (point, variable) keys.
    names: HashMap<u64, String>,
}

/// How many of the original's runs are read at once (their digests and
/// values are folded into [`Original`] between batches).
const BATCH: usize = 64;

impl Original {
    /// Reads the original's runs, one observation per test.
    pub fn read(observed: &[Observation]) -> anyhow::Result<Original> {
        let mut original = Original {
            units: Units::new(),
            digests: Vec::with_capacity(observed.len()),
            seen: HashMap::new(),
            names: HashMap::new(),
        };
        for (b, batch) in observed.chunks(BATCH).enumerate() {
            let runs = batch
                .par_iter()
                .map(|o| match o {
                    Observation::Trace(packed) => Ok(Some(read(&read_traces(packed)?, None))),
                    _ => Ok(None),
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            for (i, run) in runs.into_iter().enumerate() {
                let Some(run) = run else {
                    original.digests.push(None);
                    continue;
                };
                let at = b * BATCH + i;
                for (key, h) in run.shown {
                    original
                        .seen
                        .entry(h)
                        .and_modify(|owner| {
                            if owner.is_some_and(|(r, _)| r != at) {
                                *owner = None;
                            }
                        })
                        .or_insert(Some((at, key)));
                }
                original.units.extend(run.units);
                original.names.extend(run.names);
                original.digests.push(Some(run.digests));
            }
        }
        Ok(original)
    }

    /// How a faulty version's run on test `test` compares with the
    /// original's runs, from its traces (none when the original's run on
    /// that test has no comparable traces).
    pub fn compare(&self, traces: &[(PathBuf, TraceFile)], test: usize) -> Option<RunReach> {
        let orig = self.digests.get(test)?.as_ref()?;
        let run = read(traces, Some(&self.units));
        let mut differing = differing(&run.digests, orig, &HashSet::new());
        differing.sort_unstable();
        differing.dedup();
        let novel = run.shown.iter().filter(|(_, h)| !self.seen.contains_key(h));
        let mut novel_keys: Vec<u64> = novel.clone().filter_map(|(key, _)| *key).collect();
        novel_keys.sort_unstable();
        novel_keys.dedup();
        Some(RunReach {
            differing,
            novel_point: novel.clone().any(|(key, _)| key.is_none()),
            novel_keys,
        })
    }

    /// The original's runs that ended normally, and of them those with a
    /// point or a value (of a variable not `unstable`) no other run has.
    fn novel_runs(&self, unstable: &HashSet<u64>) -> (usize, usize) {
        let mut novel: HashSet<usize> = HashSet::new();
        for (run, key) in self.seen.values().flatten() {
            if key.is_none_or(|k| !unstable.contains(&k)) {
                novel.insert(*run);
            }
        }
        (self.digests.iter().flatten().count(), novel.len())
    }
}

/// How the faulty versions' runs of one arm compare with the original's:
/// `original` read from the original's runs, `observed[v][test]` the
/// observation of the oracle's `v`-th version's run (which carries its
/// [`RunReach`], found as it was checked).
///
/// Values that differ between runs of one program anyway (a string read
/// from a buffer the function has yet to fill: stack garbage) would make
/// every run differ. A (point, variable) whose values differ from the
/// original's on a passing run of every faulty version is taken for such
/// noise and left out ([`ArmReach::unstable`]): a fault changes what it
/// changes in its own version, and faults seeded in one function do not
/// all change its variables on passing runs.
pub fn reach(
    strategies: Vec<String>,
    oracle: &FaultMatrix,
    original: &Original,
    observed: &[Vec<Observation>],
) -> anyhow::Result<ArmReach> {
    let rows: Vec<Vec<Option<&RunReach>>> = observed
        .iter()
        .map(|row| row.iter().map(run_reach).collect())
        .collect::<anyhow::Result<_>>()?;
    let unstable = unstable(oracle, &rows);
    let versions = oracle
        .versions
        .iter()
        .enumerate()
        .map(|(v, name)| {
            let compared: Vec<Compared> = (0..oracle.tests.len())
                .map(|t| {
                    let Some(run) = rows[v][t] else {
                        return Compared::default();
                    };
                    let kept = |keys: &[u64]| keys.iter().any(|k| !unstable.contains(k));
                    Compared {
                        differs: kept(&run.differing),
                        novel: !oracle.cells[v][t] && (run.novel_point || kept(&run.novel_keys)),
                    }
                })
                .collect();
            count(name, &oracle.cells[v], &observed[v], &compared)
        })
        .collect();
    let (original_runs, original_novel) = original.novel_runs(&unstable);
    let mut unstable: Vec<String> = unstable
        .iter()
        .map(|k| {
            original
                .names
                .get(k)
                .cloned()
                .unwrap_or_else(|| "a point of a faulty version only".into())
        })
        .collect();
    unstable.sort();
    unstable.dedup();
    Ok(ArmReach {
        strategies,
        versions,
        unstable,
        original_runs,
        original_novel,
    })
}

/// What a faulty version's run stored of its reach: none when it did not
/// end normally or the original's run on its test has no traces.
fn run_reach(observed: &Observation) -> anyhow::Result<Option<&RunReach>> {
    match observed {
        Observation::Checked(findings) => Ok(findings.reach.as_ref()),
        Observation::Abnormal => Ok(None),
        _ => bail!("a faulty version's run of an invariant strategy was stored unchecked"),
    }
}

/// The keys whose values differ from the original's on a passing run of
/// every faulty version (of two or more); `rows[v][test]` as in [`reach`].
fn unstable(oracle: &FaultMatrix, rows: &[Vec<Option<&RunReach>>]) -> HashSet<u64> {
    let mut versions_of: HashMap<u64, usize> = HashMap::new();
    for (v, row) in rows.iter().enumerate() {
        let mut keys = HashSet::new();
        for (t, run) in row.iter().enumerate() {
            if let (true, Some(run)) = (oracle.cells[v][t], run) {
                keys.extend(run.differing.iter().copied());
            }
        }
        for k in keys {
            *versions_of.entry(k).or_default() += 1;
        }
    }
    versions_of
        .into_iter()
        .filter(|&(_, n)| rows.len() > 1 && n == rows.len())
        .map(|(k, _)| k)
        .collect()
}

/// The keys, but `skip`, whose digests differ between two runs (or that
/// one of them lacks).
fn differing(a: &Digests, b: &Digests, skip: &HashSet<u64>) -> Vec<u64> {
    let one_way = |x: &Digests, y: &Digests| -> Vec<u64> {
        x.iter()
            .filter(|&(k, d)| !skip.contains(k) && y.get(k) != Some(d))
            .map(|(k, _)| *k)
            .collect()
    };
    let mut keys = one_way(a, b);
    keys.extend(one_way(b, a));
    keys
}

/// How a version's run compares with the original's runs.
#[derive(Default)]
struct Compared {
    /// Its traces differ from the original's on the same test.
    differs: bool,
    /// It has a value none of the original's runs has.
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

/// A run's traces read for comparison, in one pass.
struct Read {
    digests: Digests,
    /// Every point it reached (keyed by none) and every (point, variable,
    /// value) it saw (keyed by its (point, variable) key), one hash each.
    shown: HashSet<(Option<u64>, u64)>,
    units: Units,
    names: HashMap<u64, String>,
}

/// Reads a run's traces. With `original`, points are named by the
/// original's points they align with; without, by their own (and the
/// keys' names are kept).
fn read(traces: &[(PathBuf, TraceFile)], original: Option<&Units>) -> Read {
    let mut values: HashMap<u64, Vec<u64>> = HashMap::new();
    let mut run = Read {
        digests: Digests::new(),
        shown: HashSet::new(),
        units: Units::new(),
        names: HashMap::new(),
    };
    for (_, trace) in traces {
        let (signatures, names) = point_names(trace, original);
        for s in &trace.samples {
            let point = hash(&(&trace.unit, &names[s.point]));
            *run.digests.entry(point).or_default() += 1;
            run.shown.insert((None, point));
            for (var, value) in trace.points[s.point].vars.iter().zip(&s.values) {
                let key = hash(&(point, &var.name));
                let value = comparable(value);
                values.entry(key).or_default().push(hash(&value));
                run.shown.insert((Some(key), hash(&(key, value))));
                if original.is_none() {
                    let p = &trace.points[s.point];
                    run.names.entry(key).or_insert_with(|| {
                        format!(
                            "{} {} {} ({}:{})",
                            p.function,
                            p.kind.as_str(),
                            var.name,
                            trace.unit,
                            p.line
                        )
                    });
                }
            }
        }
        run.units.insert(trace.unit.clone(), signatures);
    }
    for (key, mut v) in values {
        v.sort_unstable();
        run.digests.insert(key, hash(&v));
    }
    run
}

/// A unit's point signatures, and each point's name: its own index, or
/// with `original` the index of the original's point it aligns with.
fn point_names(trace: &TraceFile, original: Option<&Units>) -> (Vec<String>, Vec<String>) {
    let signatures: Vec<String> = trace.points.iter().map(signature).collect();
    let names = match original {
        None => (0..signatures.len()).map(|i| i.to_string()).collect(),
        Some(units) => aligned(units.get(&trace.unit).map_or(&[][..], |o| &o[..]), &signatures),
    };
    (signatures, names)
}

fn hash<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
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
    fn what_differs_on_passing_runs_of_most_versions_is_noise() {
        let digests = |pairs: &[(u64, u64)]| pairs.iter().copied().collect::<Digests>();
        let orig = digests(&[(1, 10), (2, 20)]);
        // Key 1 differs in every version on a passing run; key 2 in v3
        // (missing) and v2, and on v1's failing run (which does not count).
        let run = |pairs: &[(u64, u64)]| RunReach {
            differing: differing(&digests(pairs), &orig, &HashSet::new()),
            novel_point: false,
            novel_keys: Vec::new(),
        };
        let runs = [
            [Some(run(&[(1, 11), (2, 20)])), Some(run(&[(1, 10), (2, 21)]))],
            [Some(run(&[(1, 12), (2, 22)])), None],
            [Some(run(&[(1, 10)])), Some(run(&[(1, 13), (2, 20)]))],
        ];
        let rows: Vec<Vec<Option<&RunReach>>> = runs
            .iter()
            .map(|r| r.iter().map(Option::as_ref).collect())
            .collect();
        let oracle = FaultMatrix {
            versions: ["v1", "v2", "v3"].map(String::from).to_vec(),
            tests: ["t1", "t2"].map(String::from).to_vec(),
            cells: vec![vec![true, false], vec![true, true], vec![true, true]],
        };
        let noise = unstable(&oracle, &rows);
        assert_eq!(noise, HashSet::from([1]));
        let mine = digests(&[(1, 10), (2, 21)]);
        assert_eq!(differing(&mine, &orig, &noise), [2, 2]);
        assert!(differing(&digests(&[(1, 11), (2, 20)]), &orig, &noise).is_empty());
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
