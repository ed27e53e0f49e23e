//! The triage report: everything found (runs, classes, tree, purity) as
//! one serialisable value. Printing it is `print`'s job.

use serde::Serialize;

use super::classes::{Class, Purity, Truth};
use super::table::{Observation, Outputs, Table};
use super::tree::Tree;

/// What the JSON report's `format` field holds.
pub const FORMAT: &str = "weft triage report";
/// The JSON report's `version`; changes when a field changes meaning.
pub const VERSION: u32 = 1;

/// A triage's findings. Classes are numbered from 1 (`id`); inputs and
/// observations are indices (from 0) into `inputs` and each input's
/// `observations`.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Always `"weft triage report"`: what tells weft's reports from other files.
    pub format: &'static str,
    /// The format version, 1; it changes when a field changes meaning.
    pub version: u32,
    /// The command's words (empty when the inputs are test commands).
    pub command: Vec<String>,
    /// The aspects compared: status, stdout, stderr, outputs.
    pub compared: Vec<String>,
    /// The revisions run, in order.
    pub revisions: Vec<u32>,
    pub inputs: Vec<InputReport>,
    /// In the order of their first revision.
    pub classes: Vec<ClassReport>,
    pub tree: Node,
    /// The most questions any class takes.
    pub depth: usize,
    /// Ids of classes that share a leaf: no input tells them apart.
    pub unseparated: Vec<Vec<usize>>,
    /// How the classes match `--truth`, when given.
    pub truth: Option<TruthReport>,
    /// Whether every leaf holds revisions that need not be told apart: of
    /// one label with a truth, a single revision without.
    pub told_apart: bool,
    /// What went wrong reading runs without stopping the triage.
    pub problems: Vec<String>,
}

/// One input and what the revisions did on it.
#[derive(Debug, Clone, Serialize)]
pub struct InputReport {
    pub name: String,
    /// The file's path, or the test's command line.
    pub input: String,
    /// Whether the classes do not all agree on it.
    pub splits: bool,
    /// The distinct observations, in the order of the first revision
    /// showing each.
    pub observations: Vec<ObservationReport>,
}

/// One distinct observation; aspects not compared are left out.
#[derive(Debug, Clone, Serialize)]
pub struct ObservationReport {
    /// `exit N`, `signal N`, `timeout`, `output cap` or `did not start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The text, lossily decoded as UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outputs: Option<OutputsReport>,
    /// The revisions observed doing this.
    pub revisions: Vec<u32>,
}

/// The captured values of a run: `{"values": [...]}` or `"unreadable"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputsReport {
    Values(Vec<ProcessReport>),
    Unreadable,
}

/// The values one process captured in one unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProcessReport {
    pub unit: String,
    pub values: Vec<ValueReport>,
}

/// One captured value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueReport {
    pub name: String,
    pub value: String,
}

/// One behaviour class.
#[derive(Debug, Clone, Serialize)]
pub struct ClassReport {
    /// From 1.
    pub id: usize,
    pub revisions: Vec<u32>,
    /// Questions the tree asks before reaching it.
    pub questions: usize,
    /// Per input, the index of the class's observation.
    pub observations: Vec<usize>,
    /// The majority label, with a truth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A node of the decision tree: `{"question": {...}}` or
/// `{"leaf": {"classes": [...]}}`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Node {
    Question {
        input: usize,
        /// Information gain, in bits.
        gain: f64,
        answers: Vec<AnswerReport>,
    },
    Leaf {
        /// Class ids; more than one when no input tells them apart.
        classes: Vec<usize>,
    },
}

/// One answer: the observation of the question's input, and what follows.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerReport {
    pub observation: usize,
    pub then: Node,
}

/// How the classes match the truth.
#[derive(Debug, Clone, Serialize)]
pub struct TruthReport {
    /// Of the labelled revisions, the fraction labelled as their class's
    /// majority.
    pub purity: f64,
    /// Revisions run that are labelled.
    pub labelled: usize,
    /// Ids of classes holding more than one label.
    pub mixed: Vec<usize>,
    pub unlabelled: Vec<u32>,
}

impl Report {
    /// The report of `table` (made by running `command`), its `classes`,
    /// their `tree`, and the truth with its purity when one is given.
    pub fn new(
        command: &[String],
        table: &Table,
        classes: &[Class],
        tree: &Tree,
        truth: Option<(&Truth, &Purity)>,
    ) -> Report {
        let questions = tree.questions(classes.len());
        let leaves = leaf_revisions(tree, classes);
        let told_apart = match truth {
            Some((truth, _)) => leaves.iter().all(|leaf| one_label(leaf, truth)),
            None => leaves.iter().all(|leaf| leaf.len() == 1),
        };
        Report {
            format: FORMAT,
            version: VERSION,
            command: command.to_vec(),
            compared: table.compared.iter().map(|a| a.name().to_string()).collect(),
            revisions: table.revisions.clone(),
            inputs: inputs(table, classes),
            classes: classes
                .iter()
                .enumerate()
                .map(|(c, class)| ClassReport {
                    id: c + 1,
                    revisions: class.revisions.clone(),
                    questions: questions[c],
                    observations: class.signature.clone(),
                    label: truth.and_then(|(_, p)| p.majority[c].clone()),
                })
                .collect(),
            tree: node(tree),
            depth: tree.depth(),
            unseparated: tree.unseparated().iter().map(|leaf| ids(leaf)).collect(),
            truth: truth.map(|(_, p)| TruthReport {
                purity: p.purity,
                labelled: p.labelled,
                mixed: ids(&p.mixed),
                unlabelled: p.unlabelled.clone(),
            }),
            told_apart,
            problems: table.problems.clone(),
        }
    }

    /// The report as pretty JSON, ending with a newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The revisions of the classes with these `ids`, in order.
    pub fn revisions_of(&self, ids: &[usize]) -> Vec<u32> {
        let mut revisions: Vec<u32> = ids
            .iter()
            .flat_map(|&id| self.classes[id - 1].revisions.iter().copied())
            .collect();
        revisions.sort_unstable();
        revisions
    }
}

/// Whether `text` is a JSON report weft wrote (any version).
pub fn is_json_report(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v["format"] == FORMAT)
}

fn ids(classes: &[usize]) -> Vec<usize> {
    classes.iter().map(|c| c + 1).collect()
}

fn inputs(table: &Table, classes: &[Class]) -> Vec<InputReport> {
    table
        .inputs
        .iter()
        .enumerate()
        .map(|(i, input)| InputReport {
            name: input.name.clone(),
            input: input.describe(),
            splits: classes.iter().any(|c| c.signature[i] != classes[0].signature[i]),
            observations: table.observations[i]
                .iter()
                .enumerate()
                .map(|(o, observation)| {
                    let revisions = table
                        .revisions
                        .iter()
                        .zip(&table.cells)
                        .filter(|(_, row)| row[i] == o);
                    observation_report(table, observation, revisions.map(|(&r, _)| r).collect())
                })
                .collect(),
        })
        .collect()
}

fn observation_report(table: &Table, observation: &Observation, revisions: Vec<u32>) -> ObservationReport {
    let text = |digest: &Option<String>| {
        digest
            .as_ref()
            .map(|d| String::from_utf8_lossy(table.text(d)).into_owned())
    };
    ObservationReport {
        status: observation.status.clone(),
        stdout: text(&observation.stdout),
        stderr: text(&observation.stderr),
        outputs: observation.outputs.as_ref().map(|outputs| match outputs {
            Outputs::Unreadable => OutputsReport::Unreadable,
            Outputs::Values(processes) => OutputsReport::Values(
                processes
                    .iter()
                    .map(|(unit, values)| ProcessReport {
                        unit: unit.clone(),
                        values: values
                            .iter()
                            .map(|(name, value)| ValueReport {
                                name: name.clone(),
                                value: value.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            ),
        }),
        revisions,
    }
}

fn node(tree: &Tree) -> Node {
    match tree {
        Tree::Leaf(classes) => Node::Leaf {
            classes: ids(classes),
        },
        Tree::Question { input, gain, answers } => Node::Question {
            input: *input,
            gain: *gain,
            answers: answers
                .iter()
                .map(|a| AnswerReport {
                    observation: a.observation,
                    then: node(&a.tree),
                })
                .collect(),
        },
    }
}

/// The revisions of each leaf.
fn leaf_revisions(tree: &Tree, classes: &[Class]) -> Vec<Vec<u32>> {
    tree.leaves()
        .into_iter()
        .map(|(leaf, _)| {
            leaf.iter()
                .flat_map(|&c| classes[c].revisions.iter().copied())
                .collect()
        })
        .collect()
}

/// Whether the labelled revisions among `revisions` share one label.
fn one_label(revisions: &[u32], truth: &Truth) -> bool {
    let mut labels = revisions.iter().filter_map(|r| truth.get(r));
    let first = labels.next();
    labels.all(|l| Some(l) == first)
}

#[cfg(test)]
mod tests {
    use crate::fixture;

    #[test]
    fn told_apart_means_one_revision_per_leaf_or_one_label_with_a_truth() {
        let table = fixture::table();
        let report = crate::analyse(&[], &table, None).unwrap();
        assert!(!report.told_apart);
        assert!(report.truth.is_none());
        let truth = [(1, "right"), (2, "right"), (0, "wrong"), (5, "wrong")]
            .map(|(r, l)| (r, l.to_string()))
            .into();
        let report = crate::analyse(&[], &table, Some(&truth)).unwrap();
        assert!(report.told_apart);
        assert_eq!(report.truth.as_ref().unwrap().unlabelled, vec![3, 4, 6]);
        let truth = [(1, "right"), (2, "wrong")]
            .map(|(r, l)| (r, l.to_string()))
            .into();
        let report = crate::analyse(&[], &table, Some(&truth)).unwrap();
        assert!(!report.told_apart);
        assert_eq!(report.truth.as_ref().unwrap().mixed, vec![2]);
    }

    #[test]
    fn the_json_report_is_versioned_and_recognised() {
        let report = crate::analyse(&[], &fixture::table(), None).unwrap();
        let json = report.to_json();
        assert!(super::is_json_report(&json));
        assert!(!super::is_json_report("{\"format\": \"other\"}"));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["version"], super::VERSION);
        assert_eq!(
            value["classes"][3]["observations"],
            serde_json::json!([0, 1, 1, 0])
        );
        assert_eq!(
            value["tree"]["question"]["answers"][1]["then"]["question"]["input"],
            2
        );
    }
}
