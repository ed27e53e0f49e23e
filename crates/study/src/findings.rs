//! What checking one run of an invariant strategy found, kept instead of
//! its traces: per learned set it was checked against, the (program point,
//! kind) pairs it violated, and the violated invariants (point, kind and
//! variables) only for the sets a `score_invariants` rule weighs. The
//! rules of the invariant detector ([`super::detect_invariants`]) judge a
//! run from these alone, so a faulty version's run is checked once, as it
//! finishes, and only this is stored (a few bytes, the same for most
//! passing runs, so stored once), with what its traces show the trace
//! reach ([`RunReach`]). Which sets a run was checked against is the same
//! for the runs of one arm: it is a blob of its own (the *layout*, as for
//! ranges), stored once, and a run's own blob holds only what it violated.

use std::collections::BTreeSet;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use weft_monitor::trace::UnseenPoints;

use super::trace_reach::RunReach;

/// (program point, kind) pairs: those a run violated, or those whose
/// invariants did not hold from one half of a subset's training runs to
/// the other.
pub type Pairs = BTreeSet<(String, String)>;

/// What a run violated against one learned set, keyed two ways: by
/// (program point, kind), and by (program point, invariant), an invariant
/// named by its kind and variables (its constants differ from one learned
/// set to another).
pub type Keyed = [Pairs; 2];

/// Which of a [`Keyed`]'s sets a rule weighs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Key {
    Pair = 0,
    Invariant = 1,
}

/// One learned set a run is checked against: which learner's engines
/// learned it (an index into the study's distinct confidence limits and
/// kinds left out), which engine (an index into that learner's parts: each
/// subset's whole set, then its hold-out parts, `holdout_split::lay_out`),
/// and which points reached without training count as findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetId {
    pub learner: usize,
    pub engine: usize,
    pub unseen: UnseenPoints,
}

/// A run's violated pairs (and invariants) per learned set, in the order
/// they were checked, and what its traces show of the fault.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Findings {
    pub sets: Vec<(SetId, Keyed)>,
    /// None when the original's run on the same test left no comparable
    /// traces.
    pub reach: Option<RunReach>,
}

/// A set as the layout names it: (learner, engine, unseen mode).
type StoredId = (usize, usize, u8);

/// A set's stored findings: indices into [`Stored::pairs`] of the violated
/// pairs, then of the violated invariants.
type StoredSet = (Vec<u32>, Vec<u32>);

/// The stored form of a run's own findings: every distinct pair once,
/// each set's (in the layout's order) as indices.
#[derive(Serialize, Deserialize)]
struct Stored {
    pairs: Vec<(String, String)>,
    sets: Vec<StoredSet>,
    reach: Option<RunReach>,
}

/// zstd's level for findings: its default.
const LEVEL: i32 = 3;

impl Findings {
    /// What the run violated against `set`; an error when it was not
    /// checked against it (the run was stored by a study scored otherwise).
    pub fn keyed(&self, set: SetId) -> anyhow::Result<&Keyed> {
        match self.sets.iter().find(|(id, _)| *id == set) {
            Some((_, keyed)) => Ok(keyed),
            None => bail!("the run was not checked against learned set {set:?}"),
        }
    }

    /// The blobs the study database keeps: the layout (which sets, shared
    /// by the runs of an arm) and the run's own, compact and compressed.
    pub fn encode(&self) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
        let all: Pairs = self
            .sets
            .iter()
            .flat_map(|(_, k)| k.iter().flatten().cloned())
            .collect();
        let pairs: Vec<(String, String)> = all.into_iter().collect();
        let index = |p: &(String, String)| pairs.binary_search(p).map_or(0, |i| i as u32);
        let layout: Vec<StoredId> = self
            .sets
            .iter()
            .map(|(id, _)| (id.learner, id.engine, unseen_code(id.unseen)))
            .collect();
        let sets = self
            .sets
            .iter()
            .map(|(_, [p, i])| (p.iter().map(index).collect(), i.iter().map(index).collect()))
            .collect();
        let stored = Stored {
            pairs: pairs.clone(),
            sets,
            reach: self.reach.clone(),
        };
        Ok((
            serde_json::to_vec(&layout)?,
            zstd::encode_all(&serde_json::to_vec(&stored)?[..], LEVEL)?,
        ))
    }

    /// Inverse of [`Findings::encode`].
    pub fn decode(layout: &[u8], blob: &[u8]) -> anyhow::Result<Findings> {
        let layout: Vec<StoredId> = serde_json::from_slice(layout).context("bad stored findings' layout")?;
        let json = zstd::decode_all(blob).context("bad stored findings (not zstd)")?;
        let stored: Stored = serde_json::from_slice(&json).context("bad stored findings")?;
        if stored.sets.len() != layout.len() {
            bail!(
                "bad stored findings ({} sets for a layout of {})",
                stored.sets.len(),
                layout.len()
            );
        }
        let sets = layout
            .into_iter()
            .zip(stored.sets)
            .map(|((learner, engine, unseen), (pairs, invariants))| {
                let get = |indices: Vec<u32>| {
                    indices
                        .iter()
                        .map(|&i| {
                            stored
                                .pairs
                                .get(i as usize)
                                .cloned()
                                .context("bad stored findings")
                        })
                        .collect::<anyhow::Result<Pairs>>()
                };
                let unseen = unseen_mode(unseen)?;
                Ok((
                    SetId {
                        learner,
                        engine,
                        unseen,
                    },
                    [get(pairs)?, get(invariants)?],
                ))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Findings {
            sets,
            reach: stored.reach,
        })
    }
}

fn unseen_code(unseen: UnseenPoints) -> u8 {
    match unseen {
        UnseenPoints::Off => 0,
        UnseenPoints::Inner => 1,
        UnseenPoints::All => 2,
    }
}

fn unseen_mode(code: u8) -> anyhow::Result<UnseenPoints> {
    Ok(match code {
        0 => UnseenPoints::Off,
        1 => UnseenPoints::Inner,
        2 => UnseenPoints::All,
        _ => bail!("bad stored findings (unseen-points mode {code})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Pairs {
        list.iter().map(|(p, k)| (p.to_string(), k.to_string())).collect()
    }

    #[test]
    fn findings_survive_their_blob() {
        let id = |engine, unseen| SetId {
            learner: 1,
            engine,
            unseen,
        };
        let findings = Findings {
            sets: vec![
                (
                    id(0, UnseenPoints::Off),
                    [
                        pairs(&[("f():::ENTER", "OneOf"), ("f():::EXIT3", "LowerBound")]),
                        pairs(&[("f():::ENTER", "OneOf(x)"), ("f():::EXIT3", "LowerBound(y)")]),
                    ],
                ),
                (
                    id(0, UnseenPoints::All),
                    [
                        pairs(&[("f():::ENTER", "OneOf"), ("g():::ENTER", "UnseenPoint")]),
                        Pairs::new(),
                    ],
                ),
                (id(4, UnseenPoints::Off), Keyed::default()),
            ],
            reach: Some(RunReach {
                differing: vec![3, 7],
                novel_point: false,
                novel_keys: vec![7],
            }),
        };
        let (layout, blob) = findings.encode().unwrap();
        let back = Findings::decode(&layout, &blob).unwrap();
        assert_eq!(back, findings);
        assert_eq!(back.keyed(id(0, UnseenPoints::All)).unwrap()[0].len(), 2);
        assert!(back.keyed(id(0, UnseenPoints::Inner)).is_err());
        assert!(Findings::decode(&layout, b"not zstd").is_err());
        assert!(Findings::decode(&layout, &blob[..blob.len() - 2]).is_err());
        assert!(Findings::decode(b"not json", &blob).is_err());
        // The run's own blob names no set: the same for a run that found
        // the same against other sets, whose layout tells them apart.
        let mut elsewhere = findings.clone();
        elsewhere.sets[2].0 = id(5, UnseenPoints::Off);
        let (other_layout, other_blob) = elsewhere.encode().unwrap();
        assert_eq!(other_blob, blob);
        assert_ne!(other_layout, layout);
        assert_eq!(Findings::decode(&other_layout, &blob).unwrap(), elsewhere);
        // A layout of another number of sets is refused, not misread.
        let mut fewer = findings.clone();
        fewer.sets.pop();
        assert!(Findings::decode(&fewer.encode().unwrap().0, &blob).is_err());
    }
}
