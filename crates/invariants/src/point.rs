//! One program point's invariants and the two ways of maintaining them.
//!
//! The naive engine instantiates every invariant of the grammar over every
//! comparable tuple at declaration and checks every sample against all of
//! them. The optimised engine (Perkins & Ernst, "Efficient incremental
//! algorithms for dynamic detection of likely invariants", FSE 2004) keeps
//! the same answers with less work:
//!
//! * dynamic constants: a tuple whose variables all had one value so far
//!   gets no invariants. When one of them changes, the tuple is instantiated
//!   by replaying the constants' single value once per earlier sample.
//! * equality sets (`equality.rs`): only leaders take part in invariants.
//!   When a set splits, each tuple of a new leader is copied from the same
//!   tuple over the old leader (their histories are identical); a tuple
//!   holding both the old and the new leader saw `x == y` in every sample,
//!   so it is rebuilt from a summary of the smaller tuple it collapses to.
//! * suppression (`suppression.rs`): implied invariants wait until their
//!   antecedents are falsified.
//!
//! Each of these rebuilds exactly the state the naive engine has, which a
//! property test checks by comparing the printed reports.

use std::collections::{HashMap, HashSet};

use crate::equality::EqualitySets;
use crate::invariants::{Kind, kinds_for, linear_binary_history};
use crate::kind_set::KindSet;
use crate::model::{PointDecl, Value};
use crate::slice::{History, Slice};
use crate::vars::{VarInfo, VarStats, comparable, derive_values, expand, same_class};

/// A program point: its variables, what is known about each, and the
/// slices of invariants.
pub(crate) struct Point {
    pub decl: PointDecl,
    pub vars: Vec<VarInfo>,
    pub stats: Vec<VarStats>,
    pub samples: u64,
    optimize: bool,
    /// Kinds never instantiated here.
    off: KindSet,
    pub slices: Vec<Slice>,
    index: HashMap<Vec<usize>, usize>,
    /// Optimised mode: the equality sets, once a sample was seen.
    sets: Option<EqualitySets>,
    values: Vec<Value>,
}

impl Point {
    pub fn new(decl: PointDecl, optimize: bool, off: KindSet) -> Point {
        let vars = expand(&decl);
        let stats = vec![VarStats::new(); vars.len()];
        let mut point = Point {
            decl,
            vars,
            stats,
            samples: 0,
            optimize,
            off,
            slices: vec![],
            index: HashMap::new(),
            sets: None,
            values: vec![],
        };
        if !optimize {
            point.instantiate_everything();
        }
        point
    }

    /// The kinds the grammar has for a tuple of these variables; the naive
    /// engine adds `SetEqual` for the pairs that may share an equality set.
    fn tuple_kinds(&self, tuple: &[usize]) -> Vec<Kind> {
        let var = |i: usize| &self.vars[tuple[i]];
        let pairwise = (0..tuple.len()).all(|i| (i + 1..tuple.len()).all(|j| comparable(var(i), var(j))));
        let mut kinds = if tuple.len() == 1 || pairwise {
            kinds_for(&tuple.iter().map(|&v| self.vars[v].rep).collect::<Vec<_>>())
        } else {
            vec![]
        };
        kinds.retain(|&k| !self.off.contains(k));
        if !self.optimize && tuple.len() == 2 && same_class(var(0), var(1)) {
            kinds.push(Kind::SetEqual);
        }
        kinds
    }

    fn insert(&mut self, tuple: Vec<usize>, history: &History) {
        let kinds = self.tuple_kinds(&tuple);
        if kinds.is_empty() {
            return;
        }
        let reps = tuple.iter().map(|&v| self.vars[v].rep).collect();
        let slice = Slice::instantiate(tuple.clone(), reps, kinds, history, self.optimize);
        self.insert_slice(slice);
    }

    fn insert_slice(&mut self, slice: Slice) {
        debug_assert!(
            !self.index.contains_key(&slice.vars),
            "{:?} instantiated twice",
            slice.vars
        );
        self.index.insert(slice.vars.clone(), self.slices.len());
        self.slices.push(slice);
    }

    fn instantiate_everything(&mut self) {
        let all: Vec<usize> = (0..self.vars.len()).collect();
        for tuple in tuples(&all, &all.iter().copied().collect()) {
            self.insert(tuple, &vec![]);
        }
    }

    /// The slice over `tuple`, if it was instantiated.
    pub fn slice(&self, tuple: &[usize]) -> Option<&Slice> {
        self.index.get(tuple).map(|&at| &self.slices[at])
    }

    /// Checks one sample of the declared variables (already validated).
    pub fn add(&mut self, sample: &[Value]) {
        let mut values = std::mem::take(&mut self.values);
        derive_values(&self.vars, sample, &mut values);
        if !self.optimize {
            for slice in &mut self.slices {
                slice.add(&values, false);
            }
            self.drop_empty_slices();
        } else if self.samples == 0 {
            self.sets = Some(EqualitySets::first(&self.vars, &values));
        } else {
            self.add_optimized(&values);
        }
        for (stats, value) in self.stats.iter_mut().zip(&values) {
            stats.add(value);
        }
        self.samples += 1;
        self.values = values;
    }

    fn add_optimized(&mut self, values: &[Value]) {
        let sets = self.sets.as_mut().expect("sets exist after the first sample");
        let splits = sets.split(values);
        if !splits.is_empty() {
            self.copy_to_new_leaders(&splits);
        }
        // Constants rarely change: look before allocating anything.
        let stats = &self.stats;
        let changes =
            |v: usize| stats[v].is_constant && !stats[v].constant.as_ref().unwrap().same(&values[v]);
        if self.sets.as_ref().unwrap().sets().iter().any(|s| changes(s[0])) {
            let leaders = self.leaders();
            let changed: HashSet<usize> = leaders.iter().copied().filter(|&v| changes(v)).collect();
            self.instantiate_from_constants(&leaders, &changed);
        }
        for slice in &mut self.slices {
            slice.add(values, true);
        }
        self.drop_empty_slices();
    }

    /// Forgets slices whose invariants were all falsified, so that samples
    /// stop visiting them. A missing slice means the same as an empty one
    /// to every lookup; each slice empties once, so this rebuilds the index
    /// a bounded number of times.
    fn drop_empty_slices(&mut self) {
        if self.slices.iter().all(|s| !s.invs.is_empty()) {
            return;
        }
        self.slices.retain(|s| !s.invs.is_empty());
        self.index = self
            .slices
            .iter()
            .enumerate()
            .map(|(at, s)| (s.vars.clone(), at))
            .collect();
    }

    /// The equality sets (every variable alone before the first sample).
    pub fn sets(&self) -> EqualitySets {
        match &self.sets {
            Some(sets) => sets.clone(),
            None => EqualitySets::from_sets((0..self.vars.len()).map(|v| vec![v]).collect()),
        }
    }

    /// The leaders of the equality sets (every variable in naive mode or
    /// before the first sample).
    pub fn leaders(&self) -> Vec<usize> {
        match &self.sets {
            Some(sets) => sets.leaders(),
            None => (0..self.vars.len()).collect(),
        }
    }

    fn all_constant(&self, tuple: &[usize]) -> bool {
        tuple.iter().all(|&v| self.stats[v].is_constant)
    }

    /// Dynamic constants: `changed` leaders stop being constants with this
    /// sample. Every tuple of constants holding one of them is instantiated
    /// with its constant values, once per earlier sample.
    fn instantiate_from_constants(&mut self, leaders: &[usize], changed: &HashSet<usize>) {
        let constants: Vec<usize> = leaders
            .iter()
            .copied()
            .filter(|&v| self.stats[v].is_constant)
            .collect();
        for tuple in tuples(&constants, changed) {
            let values: Vec<Value> = tuple
                .iter()
                .map(|&v| self.stats[v].constant.clone().unwrap())
                .collect();
            let history = if values.iter().any(Value::is_missing) {
                vec![]
            } else {
                vec![(values, self.samples)]
            };
            self.insert(tuple, &history);
        }
    }

    /// Equality sets split: every tuple over the leaders that holds a new
    /// leader gets the invariants it would have had all along.
    fn copy_to_new_leaders(&mut self, splits: &[(usize, usize)]) {
        let origin: HashMap<usize, usize> = splits.iter().copied().collect();
        let fresh: HashSet<usize> = origin.keys().copied().collect();
        for tuple in tuples(&self.leaders(), &fresh) {
            if self.all_constant(&tuple) || self.tuple_kinds(&tuple).is_empty() {
                continue;
            }
            let from: Vec<usize> = tuple.iter().map(|v| *origin.get(v).unwrap_or(v)).collect();
            let mut reduced = from.clone();
            reduced.sort();
            reduced.dedup();
            if reduced.len() == tuple.len() {
                self.copy_slice(tuple, &from, &reduced);
            } else if let Some(history) = self.collapsed_history(&reduced) {
                let positions: Vec<usize> = from.iter().map(|v| reduced.binary_search(v).unwrap()).collect();
                self.insert(tuple, &lift(&history, &positions));
            }
        }
    }

    /// `tuple` stands for `from` (same histories): a copy of `from`'s slice,
    /// coordinates reordered to `tuple`'s order.
    fn copy_slice(&mut self, tuple: Vec<usize>, from: &[usize], sorted_from: &[usize]) {
        let Some(&at) = self.index.get(sorted_from) else {
            return;
        };
        let perm: Vec<usize> = from
            .iter()
            .map(|v| sorted_from.binary_search(v).unwrap())
            .collect();
        let mut slice = self.slices[at].clone();
        for inv in &mut slice.invs {
            inv.permute(&perm);
        }
        slice.vars = tuple;
        self.insert_slice(slice);
    }

    /// The history of the tuple `reduced` as far as a tuple repeating its
    /// variables can tell: for one variable, its own summary; for a pair,
    /// its line (`None` when the points were not collinear, which falsifies
    /// the only ternary invariant).
    fn collapsed_history(&self, reduced: &[usize]) -> Option<History> {
        match reduced {
            [v] => Some(
                self.stats[*v]
                    .replay()
                    .into_iter()
                    .map(|(value, n)| (vec![value], n))
                    .collect(),
            ),
            pair => {
                let slice = &self.slices[*self.index.get(pair)?];
                slice
                    .invs
                    .iter()
                    .find_map(|inv| linear_binary_history(inv.as_ref()))
            }
        }
    }
}

/// `history` over a tuple whose coordinate `i` is the original's
/// coordinate `positions[i]`.
fn lift(history: &History, positions: &[usize]) -> History {
    history
        .iter()
        .map(|(values, n)| (positions.iter().map(|&p| values[p].clone()).collect(), *n))
        .collect()
}

/// The tuples (arity 1 to 3, ascending) over `pool` that hold at least one
/// variable of `required`.
fn tuples(pool: &[usize], required: &HashSet<usize>) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let n = pool.len();
    for i in 0..n {
        let a = required.contains(&pool[i]);
        if a {
            out.push(vec![pool[i]]);
        }
        for j in i + 1..n {
            let b = a || required.contains(&pool[j]);
            if b {
                out.push(vec![pool[i], pool[j]]);
            }
            for k in j + 1..n {
                if b || required.contains(&pool[k]) {
                    out.push(vec![pool[i], pool[j], pool[k]]);
                }
            }
        }
    }
    out
}
