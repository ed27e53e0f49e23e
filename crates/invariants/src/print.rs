//! The report: which invariants are printed, and their Daikon-notation
//! text. Both engines go through the same filters, so the naive engine's
//! report is the reference for the optimised one.

use serde::{Deserialize, Serialize};

use crate::claim::{Claim, Order};
use crate::confidence::justified;
use crate::equality::EqualitySets;
use crate::invariants::{Checker, Kind, modulus_of};
use crate::model::Value;
use crate::point::Point;
use crate::suppression;

/// A reported invariant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invariant {
    /// `OneOf`, `LowerBound`, `LinearBinary`, ..., plus `Equality` for a
    /// member of an equality set and `Constant` for a dynamic constant.
    pub kind: String,
    /// The variables, in the point's order.
    pub vars: Vec<String>,
    /// Daikon notation: `x one of { 1, 6, 9 }`, `y == 2 * x + 3`.
    pub text: String,
    /// What it says, as data: checked against new samples.
    pub claim: Claim,
    /// The samples that support it (elements or adjacent pairs for
    /// sequence invariants).
    pub samples: u64,
    /// One minus the probability that it held by chance.
    pub confidence: f64,
}

/// The invariants of one program point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointReport {
    /// The point's name, e.g. `f(int):::EXIT`.
    pub name: String,
    /// Samples seen at the point.
    pub samples: u64,
    /// Equalities, constants, then the other invariants by variables.
    pub invariants: Vec<Invariant>,
}

/// What [`Engine::finish`](crate::Engine::finish) learned, per point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The points in declaration order (an aggregate exit just before its
    /// first numbered exit).
    pub points: Vec<PointReport>,
}

impl Report {
    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report is always serialisable")
    }

    /// The texts of the invariants at the point called `name`.
    pub fn texts(&self, name: &str) -> Vec<&str> {
        self.points
            .iter()
            .filter(|p| p.name == name)
            .flat_map(|p| &p.invariants)
            .map(|i| i.text.as_str())
            .collect()
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for point in &self.points {
            writeln!(f, "{}", "=".repeat(75))?;
            writeln!(f, "{}", point.name)?;
            for inv in &point.invariants {
                writeln!(f, "{}", inv.text)?;
            }
        }
        Ok(())
    }
}

/// A value as invariants print it: strings quoted, floats with a point,
/// null pointers as `null`, sequences as `[1, 2]`.
pub fn show_value(value: &Value) -> String {
    match value {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Pointer(0) => "null".into(),
        Value::Pointer(p) => format!("{p:#x}"),
        Value::Str(s) => format!("{s:?}"),
        Value::IntSeq(s) => format!("{s:?}"),
        Value::FloatSeq(s) => format!("{s:?}"),
        Value::Missing => "nonsensical".into(),
    }
}

/// `dep == a * x + b * y + c` with unit coefficients and zeros elided.
pub(crate) fn linear_text(dep: &str, terms: &[(i128, &str)], constant: i128) -> String {
    let mut rhs = String::new();
    for &(a, name) in terms.iter().filter(|t| t.0 != 0) {
        let sign = if a < 0 { "-" } else { "+" };
        let magnitude = if a.abs() == 1 {
            name.to_string()
        } else {
            format!("{} * {name}", a.abs())
        };
        rhs = match (rhs.is_empty(), a < 0) {
            (true, false) => magnitude,
            (true, true) => format!("-{magnitude}"),
            (false, _) => format!("{rhs} {sign} {magnitude}"),
        };
    }
    match (rhs.is_empty(), constant) {
        (true, c) => format!("{dep} == {c}"),
        (false, 0) => format!("{dep} == {rhs}"),
        (false, c) if c < 0 => format!("{dep} == {rhs} - {}", -c),
        (false, c) => format!("{dep} == {rhs} + {c}"),
    }
}

/// The report of one point, from its equality sets (computed by the
/// engine, or from `SetEqual` in naive mode).
pub(crate) fn point_report(point: &Point, sets: &EqualitySets, conf_limit: f64) -> PointReport {
    let names: Vec<&str> = point.vars.iter().map(|v| v.name.as_str()).collect();
    let mut out = Vec::new();
    let present = |v: usize| point.stats[v].present > 0;
    for set in sets.sets().iter().filter(|s| present(s[0])) {
        for &m in &set[1..] {
            out.push(line(
                "Equality",
                vec![names[set[0]], names[m]],
                Claim::Compare { order: Order::Equal },
                point.stats[set[0]].present,
                1.0,
            ));
        }
    }
    for set in sets
        .sets()
        .iter()
        .filter(|s| present(s[0]) && point.stats[s[0]].is_constant)
    {
        out.push(constant_line(point, set[0], &names));
    }
    let leaders = sets.leaders();
    let mut slices: Vec<_> = point
        .slices
        .iter()
        .filter(|s| s.vars.iter().all(|v| leaders.binary_search(v).is_ok()))
        .filter(|s| !s.vars.iter().all(|&v| point.stats[v].is_constant))
        .collect();
    slices.sort_by_key(|s| (s.vars.len(), s.vars.clone()));
    for slice in slices {
        let vars: Vec<&str> = slice.vars.iter().map(|&v| names[v]).collect();
        for (inv, claim) in printable(&slice.invs, vars.len(), conf_limit) {
            out.push(line(
                inv.kind().name(),
                vars.clone(),
                claim,
                inv.samples(),
                1.0 - inv.probability(),
            ));
        }
    }
    PointReport {
        name: point.decl.name.clone(),
        samples: point.samples,
        invariants: out,
    }
}

fn line(kind: &str, vars: Vec<&str>, claim: Claim, samples: u64, confidence: f64) -> Invariant {
    Invariant {
        kind: kind.into(),
        text: claim.text(&vars),
        vars: vars.iter().map(|s| s.to_string()).collect(),
        claim,
        samples,
        confidence,
    }
}

/// `x == 5`; a pointer prints `p == null`, or `p != null` when it kept one
/// address: an address means nothing in another run (ASLR), so the
/// constant is not claimed.
fn constant_line(point: &Point, v: usize, names: &[&str]) -> Invariant {
    let value = point.stats[v]
        .constant
        .as_ref()
        .expect("a present constant has a value");
    let claim = match value {
        Value::Pointer(p) if *p != 0 => Claim::NonZero { pointer: true },
        _ => Claim::OneOf {
            elements: false,
            values: vec![value.clone()],
        },
    };
    line("Constant", vec![names[v]], claim, point.samples, 1.0)
}

/// The invariants of a slice that are printed, with their claims: not
/// internal, not suppressed by an antecedent present over the tuple,
/// justified, and not implied by another printed unary invariant (a
/// printed `OneOf` implies the other unary facts; a printed modulus
/// replaces the non-modulus and, when it is even, `x is even`).
fn printable(invs: &[Box<dyn Checker>], arity: usize, conf_limit: f64) -> Vec<(&dyn Checker, Claim)> {
    let present = |k: Kind| invs.iter().any(|i| i.kind() == k);
    let mut shown: Vec<(&dyn Checker, Claim)> = invs
        .iter()
        .map(|i| i.as_ref())
        .filter(|i| !i.kind().is_internal() && !suppression::suppressed(i.kind(), present))
        .filter(|i| justified(i.probability(), conf_limit))
        .filter_map(|i| Some((i, i.claim()?)))
        .collect();
    shown.sort_by_key(|(i, _)| i.kind());
    let has = |shown: &[(&dyn Checker, Claim)], k: Kind| shown.iter().any(|(i, _)| i.kind() == k);
    if arity == 1 && has(&shown, Kind::OneOf) {
        shown.retain(|(i, _)| i.kind() == Kind::OneOf);
    }
    let modulus = shown.iter().find_map(|(i, _)| modulus_of(*i));
    if let Some((m, r)) = modulus {
        let even = m % 2 == 0 && r % 2 == 0;
        shown.retain(|(i, _)| i.kind() != Kind::NonModulus && !(even && i.kind() == Kind::Even));
    }
    shown
}

/// The equality sets naive mode ends with: variables joined by a surviving
/// `SetEqual`, which is transitive (it means identical in every sample).
pub(crate) fn naive_sets(point: &Point) -> EqualitySets {
    let n = point.vars.len();
    let mut assigned = vec![false; n];
    let mut sets = Vec::new();
    for v in 0..n {
        if assigned[v] {
            continue;
        }
        let mut set = vec![v];
        for (w, done) in assigned.iter_mut().enumerate().skip(v + 1) {
            let equal = point.slice(&[v, w]).is_some_and(|s| s.has(Kind::SetEqual));
            if point.samples > 0 && !*done && equal {
                set.push(w);
                *done = true;
            }
        }
        sets.push(set);
    }
    EqualitySets::from_sets(sets)
}
