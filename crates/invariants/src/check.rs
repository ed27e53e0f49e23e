//! Checking new samples against learned invariants: the detector half of
//! the engine. A sample violates an invariant when its values contradict
//! the invariant's [`Claim`](crate::Claim), that is, the printed text.
//!
//! ```
//! use weft_invariants::{Checks, Config, Engine, PointDecl, PointKind, Rep, Value, VarDecl};
//!
//! let decl = PointDecl {
//!     name: "f():::ENTER".into(),
//!     function: "f".into(),
//!     kind: PointKind::Enter,
//!     vars: vec![VarDecl::new("x", Rep::Int)],
//! };
//! let mut engine = Engine::new(Config::default());
//! let f = engine.declare(decl.clone());
//! for x in [1, 6, 9, 6, 1, 9, 1] {
//!     engine.add_sample(f, &[Value::Int(x)]).unwrap();
//! }
//! let checks = Checks::new(engine.finish());
//! let mut point = checks.bind(&decl);
//! assert!(point.check(&[Value::Int(6)]).unwrap().is_empty());
//! let violated = point.check(&[Value::Int(7)]).unwrap();
//! assert_eq!(violated[0].invariant.text, "x one of { 1, 6, 9 }");
//! ```

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::claim::Claim;
use crate::engine::{EngineError, validate};
use crate::model::{PointDecl, Value};
use crate::print::{Invariant, Report};
use crate::vars::{VarInfo, derive_values, expand};

/// Learned invariants by program point, ready to bind to the points of a
/// new trace.
#[derive(Clone, Debug)]
pub struct Checks {
    by_point: HashMap<String, Vec<Invariant>>,
    /// Per point, a number for each invariant (in `by_point`'s order),
    /// the same for invariants alike in sets numbered together
    /// ([`Checks::number_alike`]).
    numbers: HashMap<String, Vec<u32>>,
    /// Which numbering `numbers` belong to: sets of one numbering are
    /// bound together by number.
    numbering: u64,
    /// The points training sampled at least once.
    sampled: HashSet<String>,
}

/// One invariant a sample contradicted.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation<'a> {
    /// The learned point the invariant belongs to (an aggregate `:::EXIT`
    /// for a sample of one of its numbered exits).
    pub point: &'a str,
    pub invariant: &'a Invariant,
    /// The sample's values of the invariant's variables.
    pub values: Vec<Value>,
}

/// The invariants that apply to one declared point, with their variables
/// resolved to positions in its samples.
pub struct BoundPoint<'a>(BoundSets<'a>);

/// The invariants of several learned sets that apply to one declared
/// point, to check a run against all of them in one replay of its
/// samples: each sample's values (derived ones included) are computed
/// once, and an invariant that several sets learned alike (the same claim
/// over the same variables of the point) is checked once for them all.
/// What each set finds is what checking against that set alone finds.
pub struct BoundSets<'a> {
    decl: PointDecl,
    vars: Vec<VarInfo>,
    checks: Vec<SharedCheck<'a>>,
    /// Per set: its invariants of the point over variables it does not have.
    unresolved: Vec<usize>,
    /// Per set: training never sampled this point.
    unseen: Vec<bool>,
    scratch: Vec<Value>,
}

/// A fresh numbering of invariants.
fn new_numbering() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Hashes an invariant's number as itself.
#[derive(Default)]
struct Number(u64);

impl Hasher for Number {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n);
    }
}

/// One claim over variables at given positions, and the sets that learned
/// it: each set's index, the point it learned it at and its invariant.
struct SharedCheck<'a> {
    claim: &'a Claim,
    at: Vec<usize>,
    owners: Vec<(usize, &'a str, &'a Invariant)>,
}

impl Checks {
    /// The invariants of `report`.
    pub fn new(report: Report) -> Checks {
        let sampled = report
            .points
            .iter()
            .filter(|p| p.samples > 0)
            .map(|p| p.name.clone())
            .collect();
        let mut next = 0..;
        let numbers = report
            .points
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.invariants.iter().zip(&mut next).map(|(_, n)| n).collect(),
                )
            })
            .collect();
        let by_point = report
            .points
            .into_iter()
            .map(|p| (p.name, p.invariants))
            .collect();
        Checks {
            by_point,
            numbers,
            numbering: new_numbering(),
            sampled,
        }
    }

    /// Numbers the invariants of `sets` together, so that binding them
    /// together ([`Checks::bind_sets`]) checks invariants alike (the same
    /// point, claim and variables) once.
    pub fn number_alike(sets: &mut [Checks]) {
        let numbering = new_numbering();
        let mut alike: HashMap<(String, String), Vec<(u32, Invariant)>> = HashMap::new();
        let mut next = 0;
        for set in sets.iter_mut() {
            for (point, invariants) in &set.by_point {
                let numbers = set.numbers.get_mut(point).expect("numbered with its point");
                for (inv, number) in invariants.iter().zip(numbers) {
                    let same = alike.entry((point.clone(), inv.text.clone())).or_default();
                    *number = match same
                        .iter()
                        .find(|(_, o)| o.vars == inv.vars && o.claim == inv.claim)
                    {
                        Some((n, _)) => *n,
                        None => {
                            same.push((next, inv.clone()));
                            next += 1;
                            next - 1
                        }
                    };
                }
            }
            set.numbering = numbering;
        }
    }

    /// Whether training sampled the point named `point` at least once.
    pub fn sampled(&self, point: &str) -> bool {
        self.sampled.contains(point)
    }

    /// Every learned invariant with the point it belongs to.
    pub fn invariants(&self) -> impl Iterator<Item = (&str, &Invariant)> {
        self.by_point
            .iter()
            .flat_map(|(point, invariants)| invariants.iter().map(move |i| (point.as_str(), i)))
    }

    /// Learned invariants in all.
    pub fn len(&self) -> usize {
        self.by_point.values().map(Vec::len).sum()
    }

    /// Whether nothing was learned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The invariants that apply to samples of `decl`: those learned at a
    /// point of that name and, for a numbered exit `f:::EXIT<n>`, those of
    /// the aggregate `f:::EXIT`. A point never seen in training has none.
    pub fn bind(&self, decl: &PointDecl) -> BoundPoint<'_> {
        BoundPoint(Checks::bind_sets(&[self], decl))
    }

    /// The invariants of each of `sets` that apply to samples of `decl`,
    /// as [`Checks::bind`] finds them, bound together.
    pub fn bind_sets<'a>(sets: &[&'a Checks], decl: &PointDecl) -> BoundSets<'a> {
        let vars = expand(decl);
        let mut checks: Vec<SharedCheck<'a>> = Vec::new();
        // Numbered together, an invariant alike in several sets has one
        // number: its check is found by it.
        let together = sets.windows(2).all(|w| w[0].numbering == w[1].numbering);
        let mut by_number: HashMap<u32, usize, BuildHasherDefault<Number>> = HashMap::default();
        let mut unresolved = vec![0; sets.len()];
        let names: Vec<String> = std::iter::once(decl.name.clone())
            .chain(decl.aggregate_exit_name())
            .collect();
        for (set, learned) in sets.iter().enumerate() {
            for name in &names {
                let Some((point, invariants)) = learned.by_point.get_key_value(name) else {
                    continue;
                };
                for (inv, &number) in invariants.iter().zip(&learned.numbers[name]) {
                    let owner = (set, point.as_str(), inv);
                    if let Some(&c) = by_number.get(&number).filter(|_| together) {
                        checks[c].owners.push(owner);
                        continue;
                    }
                    let at: Option<Vec<usize>> = inv
                        .vars
                        .iter()
                        .map(|n| vars.iter().position(|v| &v.name == n))
                        .collect();
                    let Some(at) = at else {
                        unresolved[set] += 1;
                        continue;
                    };
                    by_number.insert(number, checks.len());
                    checks.push(SharedCheck {
                        claim: &inv.claim,
                        at,
                        owners: vec![owner],
                    });
                }
            }
        }
        BoundSets {
            decl: decl.clone(),
            vars,
            checks,
            unresolved,
            unseen: sets.iter().map(|s| !s.sampled(&decl.name)).collect(),
            scratch: Vec::new(),
        }
    }
}

impl<'a> BoundPoint<'a> {
    /// Invariants that apply here.
    pub fn len(&self) -> usize {
        self.0.checks.iter().map(|c| c.owners.len()).sum()
    }

    /// Whether no learned invariant applies here.
    pub fn is_empty(&self) -> bool {
        self.0.checks.is_empty()
    }

    /// Whether training never sampled this point: a sample here reached
    /// what no training run did (a finding of its own, see
    /// `docs/invariants.md`, "Points never seen in training").
    pub fn unseen(&self) -> bool {
        self.0.unseen(0)
    }

    /// The declaration this point was bound for.
    pub fn decl(&self) -> &PointDecl {
        self.0.decl()
    }

    /// Learned invariants of the point over variables this declaration
    /// lacks (the program changed between learning and checking).
    pub fn unresolved(&self) -> usize {
        self.0.unresolved(0)
    }

    /// The invariants one sample contradicts; an invariant over a missing
    /// value is not checked.
    pub fn check(&mut self, values: &[Value]) -> Result<Vec<Violation<'a>>, EngineError> {
        let mut out = Vec::new();
        self.0.check(values, |_, violation| out.push(violation))?;
        Ok(out)
    }
}

impl<'a> BoundSets<'a> {
    /// Whether the `set`-th set's training never sampled this point.
    pub fn unseen(&self, set: usize) -> bool {
        self.unseen[set]
    }

    /// The declaration this point was bound for.
    pub fn decl(&self) -> &PointDecl {
        &self.decl
    }

    /// The `set`-th set's invariants of the point over variables this
    /// declaration lacks.
    pub fn unresolved(&self, set: usize) -> usize {
        self.unresolved[set]
    }

    /// Gives `found(set, violation)` for every invariant of every set that
    /// one sample contradicts (a set's in another order than checking
    /// against it alone gives them); an invariant over a missing value is
    /// not checked.
    pub fn check(
        &mut self,
        values: &[Value],
        mut found: impl FnMut(usize, Violation<'a>),
    ) -> Result<(), EngineError> {
        validate(&self.decl, values)?;
        derive_values(&self.vars, values, &mut self.scratch);
        let mut vals: Vec<&Value> = Vec::new();
        for check in &self.checks {
            vals.clear();
            vals.extend(check.at.iter().map(|&i| &self.scratch[i]));
            if vals.iter().any(|v| v.is_missing()) || check.claim.holds(&vals) {
                continue;
            }
            for &(set, point, invariant) in &check.owners {
                let values = vals.iter().map(|&v| v.clone()).collect();
                found(
                    set,
                    Violation {
                        point,
                        invariant,
                        values,
                    },
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Engine, PointKind, Rep, VarDecl};

    fn point(name: &str, kind: PointKind) -> PointDecl {
        PointDecl {
            name: name.into(),
            function: "f".into(),
            kind,
            vars: vec![VarDecl::new("x", Rep::Int), VarDecl::new("y", Rep::Int)],
        }
    }

    /// `y == 2 * x + 3` and `x >= 0` at the exits, learned through two
    /// numbered exits (so they live at the aggregate `f():::EXIT`).
    fn learned() -> Checks {
        let mut engine = Engine::new(Config::default());
        let exits = [
            engine.declare(point("f():::EXIT1", PointKind::Exit)),
            engine.declare(point("f():::EXIT2", PointKind::Exit)),
        ];
        for x in 0..40 {
            let sample = [Value::Int(x % 8), Value::Int(2 * (x % 8) + 3)];
            engine.add_sample(exits[(x % 2) as usize], &sample).unwrap();
        }
        Checks::new(engine.finish())
    }

    #[test]
    fn a_numbered_exit_is_checked_against_its_aggregate() {
        let checks = learned();
        let mut exit = checks.bind(&point("f():::EXIT2", PointKind::Exit));
        assert!(!exit.is_empty());
        assert!(exit.check(&[Value::Int(5), Value::Int(13)]).unwrap().is_empty());
        // 17 keeps y odd and 1 (mod 4), as at exit 2, but is off the line.
        let violated = exit.check(&[Value::Int(5), Value::Int(17)]).unwrap();
        let texts: Vec<&str> = violated.iter().map(|v| v.invariant.text.as_str()).collect();
        assert_eq!(texts, ["y == 2 * x + 3"]);
        assert_eq!(violated[0].point, "f():::EXIT");
        assert_eq!(violated[0].values, [Value::Int(5), Value::Int(17)]);
        let below = exit.check(&[Value::Int(-1), Value::Int(1)]).unwrap();
        assert!(below.iter().any(|v| v.invariant.text == "x >= 0"), "{below:?}");
    }

    #[test]
    fn a_point_inside_a_function_learns_and_checks_like_any_other() {
        let mut engine = Engine::new(Config::default());
        let inner = point("f():::POINT7", PointKind::Point);
        let id = engine.declare(inner.clone());
        // Never sampled: a point only faulty runs would reach.
        engine.declare(point("f():::POINT9", PointKind::Point));
        for x in 0..30 {
            engine
                .add_sample(id, &[Value::Int(x), Value::Int(x + 1)])
                .unwrap();
        }
        let report = engine.finish();
        let at_7 = report.points.iter().find(|p| p.name == "f():::POINT7").unwrap();
        assert!(at_7.invariants.iter().any(|i| i.text == "x == y - 1"), "{at_7:?}");
        let checks = Checks::new(report);
        let mut bound = checks.bind(&inner);
        assert!(!bound.unseen());
        let violated = bound.check(&[Value::Int(3), Value::Int(5)]).unwrap();
        assert!(
            violated
                .iter()
                .any(|v| v.point == "f():::POINT7" && v.invariant.text == "x == y - 1")
        );
        assert!(
            checks.bind(&point("f():::POINT9", PointKind::Point)).unseen(),
            "declared, never sampled"
        );
        assert!(
            checks.bind(&point("g():::ENTER", PointKind::Enter)).unseen(),
            "never declared"
        );
    }

    #[test]
    fn missing_values_and_unknown_points_are_not_checked() {
        let checks = learned();
        let mut exit = checks.bind(&point("f():::EXIT1", PointKind::Exit));
        // x is missing: `y == 2 * x + 3` is not checked, y's own facts are.
        assert!(exit.check(&[Value::Missing, Value::Int(7)]).unwrap().is_empty());
        assert!(!exit.check(&[Value::Missing, Value::Int(99)]).unwrap().is_empty());
        assert!(exit.check(&[Value::Int(1)]).is_err(), "arity is checked");
        let unknown = checks.bind(&point("g():::ENTER", PointKind::Enter));
        assert!(unknown.is_empty());
    }

    /// Sets learned from overlapping slices of one stream of samples at
    /// two numbered exits: many of their invariants alike, some not.
    fn sets() -> Vec<Checks> {
        let samples: Vec<(usize, [i64; 2])> = (0..60i64)
            .map(|i| {
                (
                    (i % 2) as usize,
                    [i % 7, if i % 5 == 0 { i } else { 2 * (i % 7) + 3 }],
                )
            })
            .collect();
        [0..20, 10..40, 0..60, 30..45, 0..0]
            .into_iter()
            .map(|range| {
                let mut engine = Engine::new(Config::default());
                let exits = [
                    engine.declare(point("f():::EXIT1", PointKind::Exit)),
                    engine.declare(point("f():::EXIT2", PointKind::Exit)),
                ];
                for (exit, [x, y]) in &samples[range] {
                    engine
                        .add_sample(exits[*exit], &[Value::Int(*x), Value::Int(*y)])
                        .unwrap();
                }
                Checks::new(engine.finish())
            })
            .collect()
    }

    /// Violations in a fixed order: the order they are found in differs.
    fn sorted<'a>(found: &[Violation<'a>]) -> Vec<Violation<'a>> {
        let mut found = found.to_vec();
        found.sort_by(|a, b| (a.point, &a.invariant.text).cmp(&(b.point, &b.invariant.text)));
        found
    }

    #[test]
    fn sets_bound_together_find_what_each_set_finds_alone() {
        let mut numbered = sets();
        Checks::number_alike(&mut numbered);
        // Numbered together, alike invariants are checked once; numbered
        // apart, none are shared; both find what each set finds alone.
        assert!(bound_together(&numbered) > 0);
        assert_eq!(bound_together(&sets()), 0);
        assert!(numbered.iter().any(|c| !c.is_empty()) && numbered[4].is_empty());
    }

    /// Checks samples at each exit of [`sets`] against `sets` bound
    /// together and against each alone, asserts that they find the same;
    /// returns how many invariants were checked for more than one set.
    fn bound_together(sets: &[Checks]) -> usize {
        let refs: Vec<&Checks> = sets.iter().collect();
        let mut shared = 0;
        for name in ["f():::EXIT1", "f():::EXIT2", "g():::ENTER"] {
            let decl = point(name, PointKind::Exit);
            let mut together = Checks::bind_sets(&refs, &decl);
            let mut alone: Vec<BoundPoint> = sets.iter().map(|c| c.bind(&decl)).collect();
            let owners: usize = together.checks.iter().map(|c| c.owners.len()).sum();
            assert_eq!(owners, alone.iter().map(BoundPoint::len).sum::<usize>());
            shared += owners - together.checks.len();
            for (set, bound) in alone.iter().enumerate() {
                assert_eq!(together.unseen(set), bound.unseen());
                assert_eq!(together.unresolved(set), bound.unresolved());
            }
            let values = (-3..12).flat_map(|x| [-1, 0, 3, 13, 17, 2 * x + 3].map(|y| (x, y)));
            let samples = values
                .chain([(i64::MAX, 0), (0, i64::MIN)])
                .map(|(x, y)| [Value::Int(x), Value::Int(y)])
                .chain([[Value::Missing, Value::Int(99)]]);
            for sample in samples {
                let mut found: Vec<Vec<Violation>> = vec![Vec::new(); sets.len()];
                together.check(&sample, |set, v| found[set].push(v)).unwrap();
                for (set, bound) in alone.iter_mut().enumerate() {
                    let alone = bound.check(&sample).unwrap();
                    assert_eq!(sorted(&found[set]), sorted(&alone), "set {set}, {sample:?}");
                }
            }
            assert!(
                together.check(&[Value::Int(1)], |_, _| ()).is_err(),
                "arity is checked"
            );
        }
        shared
    }

    #[test]
    fn invariants_over_variables_a_point_lacks_are_counted() {
        let checks = learned();
        let mut fewer = point("f():::EXIT1", PointKind::Exit);
        fewer.vars.truncate(1);
        let bound = checks.bind(&fewer);
        assert!(bound.unresolved() > 0);
        assert!(!bound.is_empty(), "x >= 0 still applies");
    }
}
