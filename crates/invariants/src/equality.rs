//! Equality sets: variables identical in every sample so far (missing in
//! the same samples) form a set, and only its leader (the first variable)
//! takes part in other invariants; any invariant over the leader holds over
//! every member. Sets only ever split.

use crate::model::Value;
use crate::vars::{VarInfo, same_class};

/// A partition of a point's variables into equality sets.
#[derive(Clone, Debug)]
pub(crate) struct EqualitySets {
    /// Each set sorted, so its leader is `set[0]`.
    sets: Vec<Vec<usize>>,
}

impl EqualitySets {
    /// The sets after one sample: variables of one class (representation
    /// and comparability) with the same value.
    pub fn first(vars: &[VarInfo], values: &[Value]) -> EqualitySets {
        let mut sets: Vec<Vec<usize>> = Vec::new();
        for i in 0..vars.len() {
            let set = sets
                .iter_mut()
                .find(|s| same_class(&vars[s[0]], &vars[i]) && values[s[0]].same(&values[i]));
            match set {
                Some(set) => set.push(i),
                None => sets.push(vec![i]),
            }
        }
        EqualitySets { sets }
    }

    /// The partition given by explicit sets (each sorted).
    pub fn from_sets(mut sets: Vec<Vec<usize>>) -> EqualitySets {
        sets.sort();
        EqualitySets { sets }
    }

    /// Splits every set whose members disagree on this sample. The leader
    /// keeps the members that agree with it; every other group becomes a
    /// set of its own. Returns `(new leader, old leader)` pairs: the new
    /// leader's history is the old leader's.
    pub fn split(&mut self, values: &[Value]) -> Vec<(usize, usize)> {
        let mut splits = Vec::new();
        let mut added = Vec::new();
        for set in &mut self.sets {
            let leader = set[0];
            if set.iter().all(|&m| values[m].same(&values[leader])) {
                continue;
            }
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for &m in set.iter() {
                match groups.iter_mut().find(|g| values[g[0]].same(&values[m])) {
                    Some(g) => g.push(m),
                    None => groups.push(vec![m]),
                }
            }
            *set = groups.remove(0);
            splits.extend(groups.iter().map(|g| (g[0], leader)));
            added.extend(groups);
        }
        if !added.is_empty() {
            self.sets.extend(added);
            self.sets.sort();
        }
        splits
    }

    /// The sets, ordered by leader.
    pub fn sets(&self) -> &[Vec<usize>] {
        &self.sets
    }

    /// The leaders, ascending.
    pub fn leaders(&self) -> Vec<usize> {
        self.sets.iter().map(|s| s[0]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rep;

    fn int(name: &str) -> VarInfo {
        VarInfo {
            name: name.into(),
            rep: Rep::Int,
            comparability: None,
            size_of: None,
            declared: None,
        }
    }

    #[test]
    fn splits_keep_the_leader_and_name_new_leaders() {
        let vars = [int("a"), int("b"), int("c"), int("d")];
        let ints = |v: [i64; 4]| v.map(Value::Int).to_vec();
        let mut sets = EqualitySets::first(&vars, &ints([1, 1, 1, 2]));
        assert_eq!(sets.sets(), [vec![0, 1, 2], vec![3]]);
        assert_eq!(sets.split(&ints([5, 6, 5, 6])), [(1, 0)]);
        assert_eq!(sets.sets(), [vec![0, 2], vec![1], vec![3]]);
        assert_eq!(sets.leaders(), [0, 1, 3]);
    }

    #[test]
    fn missing_only_equals_missing() {
        let vars = [int("a"), int("b")];
        let mut sets = EqualitySets::first(&vars, &[Value::Missing, Value::Missing]);
        assert_eq!(sets.sets(), [vec![0, 1]]);
        assert_eq!(sets.split(&[Value::Int(1), Value::Missing]), [(1, 0)]);
    }
}
