//! The invariants a study's invariant strategies learn, learned once per
//! process from the original's stored training runs, and what the
//! original's runs show ([`Original`], for the trace reach), read once per
//! process from all its stored runs: both before any faulty version's run
//! is checked against them (the study's `learn` step, see
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
use super::trace_reach::Original;

/// What the invariant strategies of one arm learned, and from what.
pub struct Learning {
    /// The tests of the original's training runs that ended normally, in
    /// the order they were learned from.
    pub training_tests: Vec<usize>,
    /// The strategies scored from this arm's runs.
    pub judges: Vec<Judge>,
    pub sets: LearnedSets,
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

    /// What the original's runs of arm `arm` show, read at the first call
    /// (as [`Ctx::learned`]).
    pub fn original(&self, arm: usize) -> anyhow::Result<Arc<Original>> {
        let mut originals = self.originals.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = originals.get(&arm) {
            return Ok(found.clone());
        }
        let observed = (0..self.study.tests.len())
            .map(|t| Ok(self.load_run(Arm::Monitor(arm), 0, t)?.1))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let found = Arc::new(Original::read(&observed)?);
        originals.insert(arm, found.clone());
        Ok(found)
    }

    /// The hash of what a faulty version's run of arm `arm` is checked and
    /// compared against (every run of the original's, the schedule, the
    /// judges): part of the key of each such run, whose stored findings
    /// depend on it.
    pub(crate) fn checked_key(&self, arm: usize) -> anyhow::Result<String> {
        let mut keys = self.checked_keys.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = keys.get(&arm) {
            return Ok(found.clone());
        }
        let s = self.study;
        let mut key = KeyHasher::new("learned");
        for t in 0..s.tests.len() {
            key.str(&self.run_key(Arm::Monitor(arm), 0, t)?);
        }
        key.str(&format!("{:?}", (s.schedule(), judges_of(s, arm))));
        let found = key.finish();
        keys.insert(arm, found.clone());
        Ok(found)
    }

    /// Learns the sets of every invariant arm and reads its original's
    /// runs: the study's `learn` step.
    pub(crate) fn learn_all(&self) -> anyhow::Result<()> {
        for arm in invariant_arms(self.study) {
            self.learned(arm)?;
            self.original(arm)?;
        }
        Ok(())
    }

    fn learn(&self, arm: usize) -> anyhow::Result<Learning> {
        let s = self.study;
        let mut training_tests = Vec::new();
        let mut traces = Vec::new();
        for t in self.training_tests() {
            if let (_, Observation::Trace(packed)) = self.load_run(Arm::Monitor(arm), 0, t)? {
                training_tests.push(t);
                traces.push(packed);
            }
        }
        let judges = judges_of(s, arm);
        let sets = LearnedSets::learn(&judges, &traces, &training_tests, s.tests.len(), &s.schedule())?;
        Ok(Learning {
            training_tests,
            judges,
            sets,
        })
    }
}

/// The invariant strategies whose runs are those of arm `arm`, scored
/// together (see [`super::detect_invariants::evaluate_invariants`]).
pub(crate) fn judges_of(s: &Study, arm: usize) -> Vec<Judge> {
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
                    kinds_off: st.kinds_off,
                    alarm_budget: s.alarm_budget,
                },
            }
        })
        .collect()
}
