//! Evaluating select chains against a host: stepping from the program root
//! kind by kind, filtering, and joining labelled selects (`apply to F::P`).

use std::collections::HashMap;

use crate::aspect::ast::{Chain, CmpOp};
use crate::model::{JoinPoint, Value};

use super::convert::compare;
use super::host::{Host, HostError, Part};

/// One selected tuple: the join point of every step, named as the chain
/// writes the step (`first_stmt`, `loop`, …), in chain order.
pub type Tuple = Vec<(String, JoinPoint)>;

/// The tuples `chain` selects. `values` are the right-hand sides of the
/// chain's filter comparisons, in source order.
pub fn select(chain: &Chain, values: &[Value], host: &mut dyn Host) -> Result<Vec<Tuple>, HostError> {
    let mut descent = Descent::new(chain, values);
    std::iter::from_fn(|| descent.next(host)).collect()
}

/// One step's filter: attribute, comparison, value.
type Filter = Vec<(String, CmpOp, Value)>;

/// A walk down a select chain, giving its tuples one at a time
/// ([`Descent::next`]).
///
/// The chain is followed depth first: each join point of a step is taken
/// down the steps after it before the next one is looked at. That gives
/// the tuples in the same order as stepping breadth first (by the first
/// step's order, then the next's), but a step's join points are visited
/// while the tree their parent came from is still at hand, rather than in
/// another walk over the whole file (a large file's trees are parsed again
/// by each walk), and an apply can act on each tuple as it comes. A
/// step's candidates come a part at a time ([`Host::select_part`]): the
/// first step's, from the whole program, are then found as the walk
/// reaches them, not in a sweep of their own before it.
#[derive(Debug, Clone)]
pub struct Descent {
    /// Each step's kind as the chain writes it, and its filter.
    steps: Vec<(String, Filter)>,
    /// The candidates of each step reached and not yet taken, and where
    /// the host's next part of them starts.
    pending: Vec<(std::vec::IntoIter<JoinPoint>, Option<Part>)>,
    /// The join points taken at the steps above the deepest pending ones.
    tuple: Tuple,
    started: bool,
}

impl Descent {
    /// The walk of `chain`, with `values` its filters' right-hand sides.
    pub fn new(chain: &Chain, values: &[Value]) -> Descent {
        let mut values = values.iter();
        let steps = chain
            .steps
            .iter()
            .map(|step| {
                let filter = step
                    .filter
                    .iter()
                    .map(|c| {
                        let value = values.next().cloned().unwrap_or(Value::Null);
                        (c.attribute.name.clone(), c.op, value)
                    })
                    .collect();
                (step.kind.name.clone(), filter)
            })
            .collect();
        Descent {
            steps,
            pending: Vec::new(),
            tuple: Vec::new(),
            started: false,
        }
    }

    /// The next tuple, `None` after the last one; after an error there are
    /// no more.
    pub fn next(&mut self, host: &mut dyn Host) -> Option<Result<Tuple, HostError>> {
        let result = self.advance(host);
        if matches!(result, Some(Err(_))) {
            self.pending.clear();
        }
        result
    }

    fn advance(&mut self, host: &mut dyn Host) -> Option<Result<Tuple, HostError>> {
        if !std::mem::replace(&mut self.started, true) {
            if self.steps.is_empty() {
                return Some(Ok(Vec::new()));
            }
            if let Err(e) = self.descend(host) {
                return Some(Err(e));
            }
        }
        loop {
            let depth = self.pending.len().checked_sub(1)?;
            let Some(jp) = self.pending[depth].0.next() else {
                if let Some(from) = self.pending[depth].1 {
                    match self.part(host, from) {
                        Ok(part) => self.pending[depth] = part,
                        Err(e) => return Some(Err(e)),
                    }
                    continue;
                }
                self.pending.pop();
                self.tuple.pop();
                continue;
            };
            match passes(&jp, &self.steps[depth].1, host) {
                Err(e) => return Some(Err(e)),
                Ok(false) => continue,
                Ok(true) => {}
            }
            self.tuple.push((self.steps[depth].0.clone(), jp));
            if self.tuple.len() == self.steps.len() {
                let whole = self.tuple.clone();
                self.tuple.pop();
                return Some(Ok(whole));
            }
            if let Err(e) = self.descend(host) {
                return Some(Err(e));
            }
        }
    }

    /// Reaches the next step down: the candidates under the last join point
    /// taken (the root's for the first step).
    fn descend(&mut self, host: &mut dyn Host) -> Result<(), HostError> {
        let part = if self.tuple.is_empty() && self.steps[0].0 == "program" {
            (vec![host.root()].into_iter(), None)
        } else {
            self.part(host, Part::FIRST)?
        };
        self.pending.push(part);
        Ok(())
    }

    /// The part from `from` of the candidates of the step below the join
    /// points taken (the root's for the first step), and where the next
    /// part starts.
    fn part(
        &self,
        host: &mut dyn Host,
        from: Part,
    ) -> Result<(std::vec::IntoIter<JoinPoint>, Option<Part>), HostError> {
        let kind = &self.steps[self.tuple.len()].0;
        let parent = match self.tuple.last() {
            None => host.root(),
            Some((_, parent)) => parent.clone(),
        };
        let (candidates, next) = host.select_part(&parent, kind, from)?;
        Ok((candidates.into_iter(), next))
    }
}

/// A join point passes a filter if any comparison holds (LARA's comma is
/// "or"); an empty filter passes everything.
fn passes(jp: &JoinPoint, filter: &[(String, CmpOp, Value)], host: &mut dyn Host) -> Result<bool, HostError> {
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
