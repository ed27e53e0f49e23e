//! Observations: what one revision did on one input, reduced to what is
//! compared, and the table of every revision's observation on every input.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use anyhow::bail;

use super::inputs::Input;

/// What of a run is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Aspect {
    /// The exit status, or how the run ended abnormally.
    Status,
    Stdout,
    Stderr,
    /// The values the outputs monitor captured, per process.
    Outputs,
}

impl Aspect {
    /// Every aspect, in the order reports list them.
    pub const ALL: [Aspect; 4] = [Aspect::Status, Aspect::Stdout, Aspect::Stderr, Aspect::Outputs];
    /// What is compared unless told otherwise: stderr is left out, as it
    /// often holds the program's path, times or addresses.
    pub const DEFAULT: [Aspect; 3] = [Aspect::Status, Aspect::Stdout, Aspect::Outputs];

    /// The aspect's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Status => "status",
            Aspect::Stdout => "stdout",
            Aspect::Stderr => "stderr",
            Aspect::Outputs => "outputs",
        }
    }
}

impl fmt::Display for Aspect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Aspect {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Aspect> {
        match Aspect::ALL.into_iter().find(|a| a.name() == text) {
            Some(aspect) => Ok(aspect),
            None => bail!("`{text}` cannot be compared; choose among status, stdout, stderr, outputs"),
        }
    }
}

/// The values one process captured in one translation unit: the unit,
/// then (name, value) in the order they were captured.
pub type ProcessValues = (String, Vec<(String, String)>);

/// What the outputs monitor left after a run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outputs {
    /// One entry per process and unit, sorted: process ids differ from run
    /// to run, so they are dropped, and the order processes were recorded
    /// in does not count.
    Values(Vec<ProcessValues>),
    /// The records could not be read (a run killed while writing one);
    /// the reason is in [`Table::problems`], not here, because it names
    /// the run's own directory and would tell equal runs apart.
    Unreadable,
}

/// What one run did, reduced to the compared aspects (`None` for those
/// not compared): two runs behave the same exactly when their
/// observations are equal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Observation {
    /// `exit N`, `signal N`, `timeout`, `output cap` or `did not start`.
    pub status: Option<String>,
    /// Digest of stdout; the text is in [`Table::texts`].
    pub stdout: Option<String>,
    /// Digest of stderr; the text is in [`Table::texts`].
    pub stderr: Option<String>,
    pub outputs: Option<Outputs>,
}

/// Every revision's observation on every input.
#[derive(Debug, Clone)]
pub struct Table {
    /// The revisions run, in order: row `r` of `cells` is `revisions[r]`.
    pub revisions: Vec<u32>,
    pub inputs: Vec<Input>,
    /// The aspects the observations hold.
    pub compared: Vec<Aspect>,
    /// Per input, its distinct observations, in the order of the first
    /// revision showing each (so numbering never depends on run order).
    pub observations: Vec<Vec<Observation>>,
    /// `cells[r][i]`: the index in `observations[i]` of what revision
    /// `revisions[r]` did on input `i`.
    pub cells: Vec<Vec<usize>>,
    /// Stdout and stderr texts by digest.
    pub texts: BTreeMap<String, Vec<u8>>,
    /// What went wrong reading runs without stopping the triage.
    pub problems: Vec<String>,
}

impl Table {
    /// The table of `runs`, given revision by revision (`runs[r]` holds
    /// revision `revisions[r]`'s observation on each input, in order).
    pub fn new(
        revisions: Vec<u32>,
        inputs: Vec<Input>,
        compared: Vec<Aspect>,
        runs: Vec<Vec<Observation>>,
    ) -> Table {
        let mut observations: Vec<Vec<Observation>> = vec![Vec::new(); inputs.len()];
        let cells = runs
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .zip(&mut observations)
                    .map(
                        |(observation, seen)| match seen.iter().position(|o| *o == observation) {
                            Some(index) => index,
                            None => {
                                seen.push(observation);
                                seen.len() - 1
                            }
                        },
                    )
                    .collect()
            })
            .collect();
        Table {
            revisions,
            inputs,
            compared,
            observations,
            cells,
            texts: BTreeMap::new(),
            problems: Vec::new(),
        }
    }

    /// The text stored under `digest` (empty when unknown).
    pub fn text(&self, digest: &str) -> &[u8] {
        self.texts.get(digest).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(s: &str) -> Observation {
        Observation {
            status: Some(s.into()),
            ..Observation::default()
        }
    }

    #[test]
    fn observations_are_numbered_by_the_first_revision_showing_them() {
        let inputs = vec![
            Input {
                name: "a".into(),
                source: super::super::inputs::Source::Test("a".into()),
            },
            Input {
                name: "b".into(),
                source: super::super::inputs::Source::Test("b".into()),
            },
        ];
        let runs = vec![
            vec![status("exit 1"), status("exit 0")],
            vec![status("exit 0"), status("exit 0")],
            vec![status("exit 1"), status("timeout")],
        ];
        let table = Table::new(vec![0, 1, 2], inputs, vec![Aspect::Status], runs);
        assert_eq!(table.cells, vec![vec![0, 0], vec![1, 0], vec![0, 1]]);
        assert_eq!(table.observations[0], vec![status("exit 1"), status("exit 0")]);
        assert_eq!(table.observations[1], vec![status("exit 0"), status("timeout")]);
    }

    #[test]
    fn aspects_parse_by_name() {
        assert_eq!("stderr".parse::<Aspect>().unwrap(), Aspect::Stderr);
        let err = "stdin".parse::<Aspect>().unwrap_err().to_string();
        assert!(err.contains("`stdin` cannot be compared"), "{err}");
    }
}
