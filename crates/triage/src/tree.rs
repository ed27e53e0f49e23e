//! The decision tree: which input to ask about first, then next, until
//! one behaviour class is left.
//!
//! A node holds a set of classes and asks about one input; its answers are
//! every distinct observation of that input among the node's classes (a
//! multiway split, not yes/no on one output). The question is chosen
//! greedily, for balance first: the input whose largest part (in classes)
//! needs the fewest further yes/no questions, `⌈log₂ part⌉`, so the depth
//! stays near `⌈log₂ classes⌉` whenever the inputs allow it. Among inputs
//! equally balanced in that sense, the one with the highest information
//! gain wins (ID3), each class weighted by its number of revisions: with
//! every revision equally likely to be the right one, a class of five
//! patches is five times as likely to hold it as a class of one, and
//! splitting big classes apart first shortens the expected session. Ties go
//! to the earlier input, so the tree depends only on the inputs' order. An
//! input on which all the node's classes agree is never asked; classes that
//! no input tells apart end in one leaf.

use std::collections::BTreeMap;

use super::classes::Class;

/// Gains closer than this are equal (sums of logarithms in another order
/// differ in the last bits).
const EPSILON: f64 = 1e-9;

/// A decision tree over behaviour classes (indices into the class list).
#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    /// One class, or several that no input tells apart.
    Leaf(Vec<usize>),
    /// What does the right revision do on `input`?
    Question {
        input: usize,
        /// Information gain of the question, in bits.
        gain: f64,
        /// One answer per distinct observation of the input among the
        /// node's classes, in observation order.
        answers: Vec<Answer>,
    },
}

/// One answer to a question: an observation and the tree of the classes
/// showing it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Index into [`crate::table::Table::observations`]`[input]`.
    pub observation: usize,
    pub tree: Tree,
}

/// The tree telling `classes` apart.
pub fn build(classes: &[Class]) -> Tree {
    node(classes, (0..classes.len()).collect())
}

fn node(classes: &[Class], members: Vec<usize>) -> Tree {
    let inputs = classes.first().map_or(0, |c| c.signature.len());
    let mut best: Option<(usize, u32, f64)> = None;
    for input in 0..inputs {
        let g = gain(classes, &members, input);
        if g <= EPSILON {
            continue;
        }
        let balance = balance(classes, &members, input);
        let better = best.is_none_or(|(_, b, bg)| balance < b || (balance == b && g > bg + EPSILON));
        if better {
            best = Some((input, balance, g));
        }
    }
    let Some((input, _, gain)) = best else {
        return Tree::Leaf(members);
    };
    let answers = split(classes, &members, input)
        .into_iter()
        .map(|(observation, group)| Answer {
            observation,
            tree: node(classes, group),
        })
        .collect();
    Tree::Question { input, gain, answers }
}

/// How many yes/no questions the largest part left by asking about `input`
/// needs at least: `⌈log₂⌉` of its number of classes. Smaller is more
/// balanced.
pub fn balance(classes: &[Class], members: &[usize], input: usize) -> u32 {
    let largest = split(classes, members, input)
        .values()
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    largest.next_power_of_two().trailing_zeros()
}

/// `members` grouped by their observation of `input`.
fn split(classes: &[Class], members: &[usize], input: usize) -> BTreeMap<usize, Vec<usize>> {
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &c in members {
        groups.entry(classes[c].signature[input]).or_default().push(c);
    }
    groups
}

/// The information gain, in bits, of asking about `input` at a node
/// holding `members`, each class weighted by its number of revisions.
pub fn gain(classes: &[Class], members: &[usize], input: usize) -> f64 {
    let weight = |group: &[usize]| group.iter().map(|&c| classes[c].revisions.len()).sum::<usize>();
    let entropy = |group: &[usize]| {
        let total = weight(group) as f64;
        -group
            .iter()
            .map(|&c| classes[c].revisions.len() as f64 / total)
            .map(|p| p * p.log2())
            .sum::<f64>()
    };
    let total = weight(members) as f64;
    let after: f64 = split(classes, members, input)
        .values()
        .map(|group| weight(group) as f64 / total * entropy(group))
        .sum();
    entropy(members) - after
}

impl Tree {
    /// Every leaf's classes and its depth (the questions above it), in
    /// tree order.
    pub fn leaves(&self) -> Vec<(&[usize], usize)> {
        let mut leaves = Vec::new();
        let mut stack = vec![(self, 0)];
        while let Some((tree, depth)) = stack.pop() {
            match tree {
                Tree::Leaf(classes) => leaves.push((classes.as_slice(), depth)),
                Tree::Question { answers, .. } => {
                    stack.extend(answers.iter().rev().map(|a| (&a.tree, depth + 1)));
                }
            }
        }
        leaves
    }

    /// Per class, the number of questions that reach its leaf, in class
    /// order.
    pub fn questions(&self, classes: usize) -> Vec<usize> {
        let mut counts = vec![0; classes];
        for (leaf, depth) in self.leaves() {
            leaf.iter().for_each(|&c| counts[c] = depth);
        }
        counts
    }

    /// The most questions any class takes.
    pub fn depth(&self) -> usize {
        self.leaves()
            .into_iter()
            .map(|(_, depth)| depth)
            .max()
            .unwrap_or(0)
    }

    /// The leaves holding several classes no input tells apart.
    pub fn unseparated(&self) -> Vec<Vec<usize>> {
        self.leaves()
            .into_iter()
            .filter(|(leaf, _)| leaf.len() > 1)
            .map(|(leaf, _)| leaf.to_vec())
            .collect()
    }

    /// Every class under this node, in tree order.
    pub fn classes(&self) -> Vec<usize> {
        self.leaves()
            .into_iter()
            .flat_map(|(leaf, _)| leaf.iter().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A class of `size` revisions observing `signature`.
    fn class(size: u32, signature: &[usize]) -> Class {
        Class {
            revisions: (0..size).collect(),
            signature: signature.to_vec(),
        }
    }

    fn question_input(tree: &Tree) -> Option<usize> {
        match tree {
            Tree::Question { input, .. } => Some(*input),
            Tree::Leaf(_) => None,
        }
    }

    #[test]
    fn the_input_telling_most_apart_is_asked_and_one_splitting_nothing_never() {
        // Input 0 splits nothing, input 1 splits off class 2, input 2
        // tells all three apart.
        let classes = [class(1, &[0, 0, 0]), class(1, &[0, 0, 1]), class(1, &[0, 1, 2])];
        assert_eq!(gain(&classes, &[0, 1, 2], 0), 0.0);
        let tree = build(&classes);
        assert_eq!(question_input(&tree), Some(2));
        assert_eq!(tree.questions(3), vec![1, 1, 1]);
        assert_eq!(tree.depth(), 1);
        assert!(tree.unseparated().is_empty());
    }

    #[test]
    fn equal_gains_go_to_the_earlier_input() {
        // Inputs 0 and 1 each split one class off two equal ones.
        let classes = [class(1, &[0, 0]), class(1, &[1, 0]), class(1, &[0, 1])];
        assert!((gain(&classes, &[0, 1, 2], 0) - gain(&classes, &[0, 1, 2], 1)).abs() < EPSILON);
        let tree = build(&classes);
        assert_eq!(question_input(&tree), Some(0));
        let Tree::Question { answers, .. } = &tree else {
            panic!("{tree:?}")
        };
        assert_eq!(answers[0].observation, 0);
        assert_eq!(question_input(&answers[0].tree), Some(1));
        assert_eq!(answers[1].tree, Tree::Leaf(vec![1]));
        assert_eq!(tree.questions(3), vec![2, 1, 2]);
        assert_eq!(tree.depth(), 2);
    }

    #[test]
    fn classes_are_weighted_by_their_revisions() {
        // Unweighted, inputs 0 and 1 would tie and input 0 win. Weighted,
        // input 1 wins: it sets the four-revision class apart.
        let classes = [class(4, &[0, 0]), class(1, &[0, 1]), class(1, &[1, 1])];
        let (g0, g1) = (gain(&classes, &[0, 1, 2], 0), gain(&classes, &[0, 1, 2], 1));
        assert!(
            (g0 - 0.650).abs() < 1e-3 && (g1 - 0.918).abs() < 1e-3,
            "{g0} {g1}"
        );
        assert_eq!(question_input(&build(&classes)), Some(1));
    }

    #[test]
    fn classes_no_input_separates_share_a_leaf() {
        let classes = [class(2, &[0, 1]), class(1, &[0, 1]), class(1, &[1, 1])];
        let tree = build(&classes);
        assert_eq!(question_input(&tree), Some(0));
        assert_eq!(tree.unseparated(), vec![vec![0, 1]]);
        assert_eq!(tree.questions(3), vec![1, 1, 1]);
        assert_eq!(tree.classes(), vec![0, 1, 2]);
        let alone = [class(1, &[0]), class(1, &[0])];
        assert_eq!(build(&alone), Tree::Leaf(vec![0, 1]));
    }

    /// Asserts that every class has a leaf of its own and that the depth
    /// meets `⌈log₂ classes⌉ + 1`.
    fn assert_near_minimum(classes: &[Class], tree: &Tree) {
        let mut reached = tree.classes();
        reached.sort();
        assert_eq!(reached, (0..classes.len()).collect::<Vec<_>>(), "{tree:?}");
        assert!(tree.unseparated().is_empty(), "{tree:?}");
        let bound = classes.len().next_power_of_two().trailing_zeros() as usize + 1;
        assert!(
            tree.depth() <= bound,
            "depth {} > {bound}: {tree:?}",
            tree.depth()
        );
    }

    /// Classes of the given sizes; input `i < n` sets class `i` apart
    /// (yes/no), then one input per `base`-ary digit of the class's
    /// index (a multiway question).
    fn isolating_and_digit_inputs(sizes: &[u32], base: usize, digits: u32) -> Vec<Class> {
        let n = sizes.len();
        let sig = |k: usize| {
            let isolating = (0..n).map(|i| usize::from(i == k));
            let digit = (0..digits).map(|d| k / base.pow(d) % base);
            isolating.chain(digit).collect::<Vec<_>>()
        };
        (0..n).map(|k| class(sizes[k], &sig(k))).collect()
    }

    #[test]
    fn balanced_questions_beat_setting_the_biggest_class_apart_first() {
        // Weights 16, 8, 4, 2, 1, 1: the information gain alone sets the
        // biggest class apart, then the next, a chain five deep. Binary
        // digits of the class index tell the six apart in three.
        let classes = isolating_and_digit_inputs(&[16, 8, 4, 2, 1, 1], 2, 3);
        let tree = build(&classes);
        assert_near_minimum(&classes, &tree);
        assert_eq!(tree.depth(), 3);
        assert_eq!(question_input(&tree), Some(6), "the first digit: {tree:?}");
    }

    #[test]
    fn a_question_with_three_answers_counts_all_three() {
        // 27 classes, one holding most revisions: three questions with
        // three answers each tell them apart; yes/no questions alone would
        // need 26.
        let mut sizes = vec![1; 27];
        sizes[13] = 40;
        let classes = isolating_and_digit_inputs(&sizes, 3, 3);
        let tree = build(&classes);
        assert_near_minimum(&classes, &tree);
        assert_eq!(tree.depth(), 3);
        assert_eq!(tree.questions(27), vec![3; 27]);
    }

    #[test]
    fn only_yes_no_questions_still_reach_every_class() {
        // No balanced input exists: every class is reached, and the depth
        // is what the inputs allow (one class set apart per question).
        let classes = isolating_and_digit_inputs(&[3, 1, 1, 1], 2, 0);
        let tree = build(&classes);
        let mut reached = tree.classes();
        reached.sort();
        assert_eq!(reached, vec![0, 1, 2, 3]);
        assert!(tree.unseparated().is_empty());
        assert_eq!(tree.depth(), 3);
    }

    #[test]
    fn one_class_needs_no_question() {
        let tree = build(&[class(3, &[0, 0])]);
        assert_eq!(tree, Tree::Leaf(vec![0]));
        assert_eq!(tree.depth(), 0);
        assert_eq!(build(&[]), Tree::Leaf(vec![]));
    }
}
