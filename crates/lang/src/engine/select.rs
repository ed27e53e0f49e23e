//! Evaluating select chains against a host: stepping from the program root
//! kind by kind, filtering, and joining labelled selects (`apply to F::P`).

use std::collections::HashMap;

use crate::aspect::ast::{Chain, CmpOp};
use crate::model::{JoinPoint, Value};

use super::convert::compare;
use super::host::{Host, HostError};

/// One selected tuple: the join point of every step, named as the chain
/// writes the step (`first_stmt`, `loop`, …), in chain order.
pub type Tuple = Vec<(String, JoinPoint)>;

/// The tuples `chain` selects. `values` are the right-hand sides of the
/// chain's filter comparisons, in source order.
///
/// The chain is followed depth first: each join point of a step is taken
/// down the steps after it before the next one is looked at. That gives
/// the tuples in the same order as stepping breadth first (by the first
/// step's order, then the next's), but a step's join points are visited
/// while the tree their parent came from is still at hand, rather than in
/// a second walk over the whole file (a large file's trees are parsed
/// again by each walk).
pub fn select(chain: &Chain, values: &[Value], host: &mut dyn Host) -> Result<Vec<Tuple>, HostError> {
    let mut values = values.iter();
    let filters: Vec<Filter> = chain
        .steps
        .iter()
        .map(|step| {
            step.filter
                .iter()
                .map(|c| {
                    (
                        c.attribute.name.as_str(),
                        c.op,
                        values.next().unwrap_or(&Value::Null),
                    )
                })
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    extend(chain, &filters, Vec::new(), host, &mut out)?;
    Ok(out)
}

/// One step's filter: attribute, comparison, value.
type Filter<'a> = Vec<(&'a str, CmpOp, &'a Value)>;

/// Appends to `out` every tuple that extends `tuple` (the join points of
/// the chain's first steps) through the chain's remaining steps.
fn extend(
    chain: &Chain,
    filters: &[Filter],
    tuple: Tuple,
    host: &mut dyn Host,
    out: &mut Vec<Tuple>,
) -> Result<(), HostError> {
    let i = tuple.len();
    let Some(step) = chain.steps.get(i) else {
        out.push(tuple);
        return Ok(());
    };
    let candidates = match tuple.last() {
        None if i == 0 && step.kind.name == "program" => vec![host.root()],
        None => host.select(&host.root(), &step.kind.name)?,
        Some((_, parent)) => host.select(parent, &step.kind.name)?,
    };
    for jp in candidates {
        if passes(&jp, &filters[i], host)? {
            let mut extended = tuple.clone();
            extended.push((step.kind.name.clone(), jp));
            extend(chain, filters, extended, host, out)?;
        }
    }
    Ok(())
}

/// A join point passes a filter if any comparison holds (LARA's comma is
/// "or"); an empty filter passes everything.
fn passes(jp: &JoinPoint, filter: &[(&str, CmpOp, &Value)], host: &mut dyn Host) -> Result<bool, HostError> {
    if filter.is_empty() {
        return Ok(true);
    }
    for (attribute, op, value) in filter {
        let actual = host.attribute(jp, attribute)?;
        let ordering = compare(&actual, value);
        let holds = match op {
            CmpOp::Eq => ordering == Some(std::cmp::Ordering::Equal),
            CmpOp::Ne => ordering != Some(std::cmp::Ordering::Equal),
            CmpOp::Lt => ordering == Some(std::cmp::Ordering::Less),
            CmpOp::Le => matches!(
                ordering,
                Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
            ),
            CmpOp::Gt => ordering == Some(std::cmp::Ordering::Greater),
            CmpOp::Ge => matches!(
                ordering,
                Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
            ),
        };
        if holds {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Joins the tuples of several selects: tuples combine when they agree on
/// the join points of their common prefix (the leading steps both chains
/// name alike). The result is ordered by the first select, then the next;
/// each joined tuple is the first tuple followed by the others' own steps.
pub fn join(selects: Vec<Vec<Tuple>>) -> Vec<Tuple> {
    let mut selects = selects.into_iter();
    let Some(mut joined) = selects.next() else {
        return Vec::new();
    };
    for other in selects {
        joined = join_two(&joined, &other);
    }
    joined
}

/// The step names of a tuple.
fn names(tuple: &Tuple) -> impl Iterator<Item = &str> {
    tuple.iter().map(|(name, _)| name.as_str())
}

/// Joins two selects. Every tuple of one select names the same steps, so
/// the common prefix is the same for every pair, and the right tuples are
/// found by a hash of their prefix's join points: a nested loop over both
/// made a large file's weave quadratic.
fn join_two(left: &[Tuple], right: &[Tuple]) -> Vec<Tuple> {
    let (Some(l0), Some(r0)) = (left.first(), right.first()) else {
        return Vec::new();
    };
    let common = names(l0).zip(names(r0)).take_while(|(a, b)| a == b).count();
    let uniform = |tuples: &[Tuple], first: &Tuple| tuples.iter().all(|t| names(t).eq(names(first)));
    if !uniform(left, l0) || !uniform(right, r0) {
        return nested_join(left, right);
    }
    let mut by_prefix: HashMap<&[(String, JoinPoint)], Vec<&Tuple>> = HashMap::new();
    for r in right {
        by_prefix.entry(&r[..common]).or_default().push(r);
    }
    let mut joined = Vec::new();
    for l in left {
        for r in by_prefix.get(&l[..common]).map_or(&[][..], Vec::as_slice) {
            let mut tuple = l.clone();
            tuple.extend(r[common..].iter().cloned());
            joined.push(tuple);
        }
    }
    joined
}

/// [`join_two`] pair by pair, for selects whose tuples name different steps.
fn nested_join(left: &[Tuple], right: &[Tuple]) -> Vec<Tuple> {
    let mut joined = Vec::new();
    for l in left {
        for r in right {
            let common = names(l).zip(names(r)).take_while(|(a, b)| a == b).count();
            if l[..common] == r[..common] {
                let mut tuple = l.clone();
                tuple.extend(r[common..].iter().cloned());
                joined.push(tuple);
            }
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jp(start: usize) -> JoinPoint {
        JoinPoint {
            kind: "x",
            file: Some(0),
            range: start..start + 1,
            node_kind: 0,
        }
    }

    #[test]
    fn joins_on_common_prefix() {
        let f = vec![
            vec![("function".to_string(), jp(1)), ("first_stmt".to_string(), jp(2))],
            vec![
                ("function".to_string(), jp(10)),
                ("first_stmt".to_string(), jp(11)),
            ],
        ];
        let p = vec![
            vec![("function".to_string(), jp(1)), ("param".to_string(), jp(3))],
            vec![("function".to_string(), jp(1)), ("param".to_string(), jp(4))],
            vec![("function".to_string(), jp(10)), ("param".to_string(), jp(12))],
        ];
        let joined = join(vec![f, p]);
        let params: Vec<usize> = joined.iter().map(|t| t[2].1.range.start).collect();
        assert_eq!(params, vec![3, 4, 12]);
        assert_eq!(joined[2][1].1.range.start, 11);
    }
}
