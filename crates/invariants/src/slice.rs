//! A slice: the invariants over one tuple of variables, and how a sample
//! reaches them.

use crate::invariants::{Checker, Kind, create};
use crate::model::{Rep, Value};
use crate::suppression;

/// A replayable history: tuple values with repeat counts.
pub(crate) type History = Vec<(Vec<Value>, u64)>;

/// The invariants over one tuple (variable indices, ascending).
#[derive(Clone)]
pub(crate) struct Slice {
    pub vars: Vec<usize>,
    reps: Vec<Rep>,
    /// Every kind the grammar has for this tuple (what can be re-instantiated).
    kinds: Vec<Kind>,
    pub invs: Vec<Box<dyn Checker>>,
}

impl Slice {
    /// The invariants of `kinds` over `vars`, as if they had checked
    /// `history`: those it falsifies are dropped, and with `suppress` so
    /// are those an antecedent that survived implies.
    pub fn instantiate(
        vars: Vec<usize>,
        reps: Vec<Rep>,
        kinds: Vec<Kind>,
        history: &History,
        suppress: bool,
    ) -> Slice {
        let mut invs: Vec<Box<dyn Checker>> = kinds.iter().map(|&k| create(k, &reps)).collect();
        for (values, count) in history {
            let refs: Vec<&Value> = values.iter().collect();
            invs.retain_mut(|inv| inv.add(&refs, *count));
        }
        if suppress {
            let present: Vec<Kind> = invs.iter().map(|i| i.kind()).collect();
            invs.retain(|inv| !suppression::suppressed(inv.kind(), |k| present.contains(&k)));
        }
        Slice {
            vars,
            reps,
            kinds,
            invs,
        }
    }

    /// Whether an invariant of `kind` is present.
    pub fn has(&self, kind: Kind) -> bool {
        self.invs.iter().any(|i| i.kind() == kind)
    }

    /// Checks one sample (the values of all the point's variables). With
    /// `suppress`, a falsified antecedent brings back the consequents no
    /// other antecedent still suppresses.
    pub fn add(&mut self, values: &[Value], suppress: bool) {
        let mut refs: [&Value; 3] = [&Value::Missing; 3];
        let mut missing = false;
        for (slot, &v) in refs.iter_mut().zip(&self.vars) {
            *slot = &values[v];
            missing |= values[v].is_missing();
        }
        let refs = &refs[..self.vars.len()];
        let mut falsified: Vec<Box<dyn Checker>> = Vec::new();
        let mut i = 0;
        while i < self.invs.len() {
            let inv = &mut self.invs[i];
            if (!missing || inv.sees_missing()) && !inv.add(refs, 1) {
                falsified.push(self.invs.swap_remove(i));
            } else {
                i += 1;
            }
        }
        if suppress {
            for antecedent in falsified {
                self.release(antecedent.as_ref(), refs);
            }
        }
    }

    /// Instantiates the consequents of a falsified antecedent that nothing
    /// else suppresses, from its history, then checks the current sample.
    fn release(&mut self, antecedent: &dyn Checker, current: &[&Value]) {
        for &kind in suppression::consequents(antecedent.kind()) {
            if !self.kinds.contains(&kind) || self.has(kind) || suppression::suppressed(kind, |k| self.has(k))
            {
                continue;
            }
            // The history may falsify the consequent (`x == 0` does not
            // give `x != 0`): then it would have been falsified all along.
            let mut inv = create(kind, &self.reps);
            let replayed = antecedent.history().iter().all(|(values, count)| {
                let refs: Vec<&Value> = values.iter().collect();
                inv.add(&refs, *count)
            });
            if replayed && inv.add(current, 1) {
                self.invs.push(inv);
            }
        }
    }
}
