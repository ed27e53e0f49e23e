//! The invariants a study's invariant strategies learn, learned once per
//! process from the original's stored training runs, before any faulty
//! version's run is checked against them (the study's `learn` step, see
//! [`super::jobs::phases`]).
//!
//! The original's traces are what is kept, not the learned sets: learning
//! is deterministic, so a resumed study, a `--step` worker or a collection
//! learns the very sets again from them, and the traces of one version
//! (the original) are a small share of a study's records.

use std::sync::Arc;

use super::cache::KeyHasher;
use super::detect_invariants::{Judge, LearnedSets, Options};
use super::exec::Ctx;
use super::jobs::{Arm, invariant_arms};
use super::matrix::Observation;
use super::study::{Detector, Study};

/// What the invariant strategies of one arm learned, and from what.
pub struct Learning {
    /// The tests of the original's training runs that ended normally, in
    /// the order they were learned from.
    pub training_tests: Vec<usize>,
    /// The strategies scored from this arm's runs.
    pub judges: Vec<Judge>,
    pub sets: LearnedSets,
    /// The hash of what the sets depend on (the training runs' keys, the
    /// schedule, the judges): part of the key of each faulty version's
    /// run, whose stored findings depend on it.
    pub key: String,
}

impl Ctx<'_> {
    /// The learned sets of the invariant strategies whose runs are those
    /// of arm `arm`, learned at the first call. Not to be called first
    /// from inside a parallel step that may run another such call on the
    /// same thread: the study learns in a step of its own.
    pub fn learned(&self, arm: usize) -> anyhow::Result<Arc<Learning>> {
        let mut learned = self.learned.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = learned.get(&arm) {
            return Ok(found.clone());
        }
        let found = Arc::new(self.learn(arm)?);
        learned.insert(arm, found.clone());
        Ok(found)
    }

    /// Learns the sets of every invariant arm: the study's `learn` step.
    pub(crate) fn learn_all(&self) -> anyhow::Result<()> {
        for arm in invariant_arms(self.study) {
            self.learned(arm)?;
        }
        Ok(())
    }

    fn learn(&self, arm: usize) -> anyhow::Result<Learning> {
        let s = self.study;
        let mut key = KeyHasher::new("learned");
        let mut training_tests = Vec::new();
        let mut traces = Vec::new();
        for t in self.training_tests() {
            key.str(&self.run_key(Arm::Monitor(arm), 0, t)?);
            if let (_, Observation::Trace(packed)) = self.load_run(Arm::Monitor(arm), 0, t)? {
                training_tests.push(t);
                traces.push(packed);
            }
        }
        let judges = judges_of(s, arm);
        key.str(&format!("{:?}", (s.schedule(), &judges)));
        let sets = LearnedSets::learn(&judges, &traces, &s.schedule())?;
        Ok(Learning {
            training_tests,
            judges,
            sets,
            key: key.finish(),
        })
    }
}

/// The invariant strategies whose runs are those of arm `arm`, scored
/// together (see [`super::detect_invariants::evaluate_invariants`]).
fn judges_of(s: &Study, arm: usize) -> Vec<Judge> {
    (0..s.strategies.len())
        .filter(|&j| s.runs_of(j) == arm && s.strategies[j].detector == Detector::Invariants)
        .map(|j| {
            let st = &s.strategies[j];
            Judge {
                name: st.name.clone(),
                options: Options {
                    holdout: st.holdout,
                    unseen: st.unseen_points,
                    confidence: st.confidence,
                    alarm_budget: s.alarm_budget,
                },
            }
        })
        .collect()
}
