//! Behaviour classes: revisions that did the same on every input, and how
//! well they match a ground truth.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::{Context, bail};

use super::table::Table;

/// Revisions with identical observations on every input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// In the order they were run.
    pub revisions: Vec<u32>,
    /// The class's observation on each input: an index into
    /// [`Table::observations`]`[input]`.
    pub signature: Vec<usize>,
}

/// The table's behaviour classes, in the order of their first revision.
pub fn classes(table: &Table) -> Vec<Class> {
    let mut classes: Vec<Class> = Vec::new();
    let mut by_signature: HashMap<&[usize], usize> = HashMap::new();
    for (&revision, row) in table.revisions.iter().zip(&table.cells) {
        match by_signature.get(row.as_slice()) {
            Some(&c) => classes[c].revisions.push(revision),
            None => {
                by_signature.insert(row, classes.len());
                classes.push(Class {
                    revisions: vec![revision],
                    signature: row.clone(),
                });
            }
        }
    }
    classes
}

/// Known labels of revisions (`3 correct`), the ground truth clustering
/// is measured against.
pub type Truth = BTreeMap<u32, String>;

/// Reads a truth file: one `<revision> <label>` a line; empty lines and
/// `#` comments are skipped. Errors name the file and line.
pub fn read_truth(file: &Path) -> anyhow::Result<Truth> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read truth {}", file.display()))?;
    let mut truth = Truth::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", file.display(), i + 1);
        let (revision, label) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let Ok(revision) = revision.parse::<u32>() else {
            bail!("{at}: `{revision}` is not a revision number (write `<revision> <label>`)");
        };
        if label.trim().is_empty() {
            bail!("{at}: revision {revision} has no label (write `<revision> <label>`)");
        }
        if truth.insert(revision, label.trim().to_string()).is_some() {
            bail!("{at}: revision {revision} is labelled twice");
        }
    }
    Ok(truth)
}

/// How the classes match the truth.
#[derive(Debug, Clone, PartialEq)]
pub struct Purity {
    /// Of the labelled revisions, the fraction whose label is their
    /// class's majority label.
    pub purity: f64,
    /// Per class, its majority label (the first in label order on a tie;
    /// `None` when no revision of the class is labelled).
    pub majority: Vec<Option<String>>,
    /// Classes holding more than one label.
    pub mixed: Vec<usize>,
    /// Revisions run but not labelled (left out of the purity).
    pub unlabelled: Vec<u32>,
    /// How many revisions run are labelled.
    pub labelled: usize,
}

/// Measures `classes` against `truth`; an error when the truth labels none
/// of the revisions run.
pub fn purity(classes: &[Class], truth: &Truth) -> anyhow::Result<Purity> {
    let mut result = Purity {
        purity: 0.0,
        majority: Vec::new(),
        mixed: Vec::new(),
        unlabelled: Vec::new(),
        labelled: 0,
    };
    let mut agreeing = 0;
    for (c, class) in classes.iter().enumerate() {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for revision in &class.revisions {
            match truth.get(revision) {
                Some(label) => *counts.entry(label).or_default() += 1,
                None => result.unlabelled.push(*revision),
            }
        }
        // max_by_key keeps the last maximum; reversing keeps the first.
        let majority = counts.iter().rev().max_by_key(|&(_, &n)| n);
        agreeing += majority.map_or(0, |(_, &n)| n);
        result.labelled += counts.values().sum::<usize>();
        result.majority.push(majority.map(|(label, _)| label.to_string()));
        if counts.len() > 1 {
            result.mixed.push(c);
        }
    }
    if result.labelled == 0 {
        bail!("the truth labels none of the revisions run");
    }
    result.unlabelled.sort_unstable();
    result.purity = agreeing as f64 / result.labelled as f64;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::{Input, Source};
    use crate::table::{Aspect, Observation};

    fn table(rows: &[&[&str]]) -> Table {
        let inputs = (0..rows[0].len())
            .map(|i| Input {
                name: format!("in{i}"),
                source: Source::Test(String::new()),
            })
            .collect();
        let runs = rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|s| Observation {
                        stdout: Some(s.to_string()),
                        ..Observation::default()
                    })
                    .collect()
            })
            .collect();
        Table::new(
            (0..rows.len() as u32).collect(),
            inputs,
            vec![Aspect::Stdout],
            runs,
        )
    }

    #[test]
    fn revisions_equal_on_every_input_share_a_class() {
        let t = table(&[&["a", "x"], &["b", "x"], &["a", "x"], &["a", "y"], &["b", "x"]]);
        let got: Vec<Vec<u32>> = classes(&t).into_iter().map(|c| c.revisions).collect();
        assert_eq!(got, vec![vec![0, 2], vec![1, 4], vec![3]]);
    }

    fn class(revisions: &[u32]) -> Class {
        Class {
            revisions: revisions.to_vec(),
            signature: Vec::new(),
        }
    }

    #[test]
    fn purity_counts_revisions_agreeing_with_their_class_majority() {
        let classes = [class(&[0, 5, 6]), class(&[1, 2]), class(&[3])];
        let truth: Truth = [
            (0, "wrong"),
            (5, "wrong"),
            (6, "correct"),
            (1, "correct"),
            (2, "correct"),
            (3, "wrong"),
        ]
        .map(|(r, l)| (r, l.to_string()))
        .into();
        let p = purity(&classes, &truth).unwrap();
        assert!((p.purity - 5.0 / 6.0).abs() < 1e-12, "{p:?}");
        assert_eq!(p.mixed, vec![0]);
        assert_eq!(p.majority[0].as_deref(), Some("wrong"));
        assert_eq!(p.labelled, 6);
    }

    #[test]
    fn a_tie_takes_the_first_label_and_unlabelled_revisions_are_left_out() {
        let classes = [class(&[1, 2, 9])];
        let truth: Truth = [(1, "b"), (2, "a")].map(|(r, l)| (r, l.to_string())).into();
        let p = purity(&classes, &truth).unwrap();
        assert_eq!(p.majority[0].as_deref(), Some("a"));
        assert_eq!(p.purity, 0.5);
        assert_eq!(p.unlabelled, vec![9]);
        let none: Truth = [(7, "a".to_string())].into();
        assert!(
            purity(&classes, &none)
                .unwrap_err()
                .to_string()
                .contains("labels none")
        );
    }

    #[test]
    fn truth_files_are_checked_line_by_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("truth");
        std::fs::write(&file, "# labels\n3 correct\n\n0  buggy original\n").unwrap();
        let truth = read_truth(&file).unwrap();
        assert_eq!(truth[&0], "buggy original");
        assert_eq!(truth[&3], "correct");
        for (text, message) in [
            ("x correct\n", "truth:1: `x` is not a revision number"),
            ("1 a\n3\n", "truth:2: revision 3 has no label"),
            ("1 a\n1 b\n", "truth:2: revision 1 is labelled twice"),
        ] {
            std::fs::write(&file, text).unwrap();
            let err = read_truth(&file).unwrap_err().to_string();
            assert!(err.contains(message), "{err}");
        }
        let err = read_truth(&dir.path().join("none")).unwrap_err().to_string();
        assert!(err.contains("cannot read truth"), "{err}");
    }
}
