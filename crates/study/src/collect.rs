//! Turning finished runs into the oracle matrix and each strategy's
//! evaluation.

use serde::Serialize;

use super::detect_invariants::{KindBreakdown, evaluate_invariants};
use super::evaluate::{Evaluation, evaluate};
use super::exec::Ctx;
use super::jobs::{Arm, invariant_arms};
use super::learned_sets::judges_of;
use super::matrix::{FaultMatrix, Observation};
use super::oracle::passes;
use super::study::{Detector, Study};
use super::trace_reach::{ArmReach, reach};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use weft_monitor::ranges::learn::Run;
use weft_run::Progress;

/// Everything a report is made of.
#[derive(Debug, Clone, Serialize)]
pub struct Results {
    pub oracle: FaultMatrix,
    pub evaluations: Vec<Evaluation>,
    /// Per strategy: (version, test) pairs whose monitored build's outputs
    /// differ from the plain build's (the instrumentation changed behaviour).
    pub instrumentation_changes: Vec<(String, Vec<String>)>,
    /// Per strategy: training runs usable (ended normally).
    pub training_runs: Vec<(String, usize)>,
    /// Per invariant strategy: which kinds of invariant caught faults and
    /// which raised alarms on passing runs.
    pub kind_breakdowns: Vec<KindBreakdown>,
    /// Per faulty version (the oracle's order), the tests (indices into the
    /// oracle's) whose plain run crashed, timed out or passed the output
    /// cap: failures a user sees without any monitor, which every detector
    /// flags.
    pub abnormal: Vec<Vec<usize>>,
    /// Per invariant arm: which versions' failing runs leave traces that
    /// differ from the original's on the same test (what any detector
    /// over that instrumentation could see).
    pub trace_reach: Vec<ArmReach>,
}

/// A loaded arm: per version, per test, the run and what its monitor saw.
type Loaded = Vec<Vec<(weft_run::RunRecord, Observation)>>;

/// Every run of `arm`, version by version.
fn load_arm(ctx: &Ctx, arm: Arm) -> anyhow::Result<Loaded> {
    let s = ctx.study;
    let progress = Progress::new(
        format!("experiment (loading runs of {})", arm.dir_name(s)),
        "runs",
        s.versions.len() * s.tests.len(),
    );
    let runs = (0..s.versions.len())
        .map(|v| {
            (0..s.tests.len())
                .map(|t| {
                    progress.step();
                    ctx.load_run(arm, v, t)
                })
                .collect()
        })
        .collect();
    progress.finish();
    runs
}

/// The oracle: a faulty version's run passes when its outputs are the
/// original's on the same test.
fn oracle(s: &Study, plain: &Loaded) -> FaultMatrix {
    let cells = plain[1..]
        .iter()
        .map(|row| {
            row.iter()
                .zip(&plain[0])
                .map(|((r, _), (o, _))| passes(o, r, s.compare_stderr))
                .collect()
        })
        .collect();
    FaultMatrix {
        versions: s.faulty().iter().map(|v| v.name.clone()).collect(),
        tests: s.tests.iter().map(|t| t.name.clone()).collect(),
        cells,
    }
}

/// Only what each invariant arm's traces can see ([`ArmReach`]), without
/// learning or scoring: fails when a run is missing or stale.
pub fn collect_reach(ctx: &Ctx) -> anyhow::Result<Vec<ArmReach>> {
    let s = ctx.study;
    let oracle = oracle(s, &load_arm(ctx, Arm::Plain)?);
    invariant_arms(s)
        .into_iter()
        .map(|arm| {
            let observed = observations(&load_arm(ctx, Arm::Monitor(arm))?);
            arm_reach(ctx, arm, &oracle, &observed)
        })
        .collect()
}

fn observations(runs: &Loaded) -> Vec<Vec<Observation>> {
    runs.iter()
        .map(|row| row.iter().map(|(_, o)| o.clone()).collect())
        .collect()
}

/// The reach of arm `arm`'s traces, named by the invariant strategies
/// scored from them.
fn arm_reach(
    ctx: &Ctx,
    arm: usize,
    oracle: &FaultMatrix,
    observed: &[Vec<Observation>],
) -> anyhow::Result<ArmReach> {
    let names = judges_of(ctx.study, arm).into_iter().map(|j| j.name).collect();
    reach(names, oracle, &*ctx.original(arm)?, &observed[1..])
}

/// Reads every finished run; fails when one is missing or stale.
pub fn collect(ctx: &Ctx) -> anyhow::Result<Results> {
    let s = ctx.study;
    let tests: Vec<String> = s.tests.iter().map(|t| t.name.clone()).collect();
    let plain = load_arm(ctx, Arm::Plain)?;
    let abnormal = plain[1..]
        .iter()
        .map(|row| (0..row.len()).filter(|&t| row[t].0.abnormal.is_some()).collect())
        .collect();
    let oracle = oracle(s, &plain);

    let mut evaluations = Vec::new();
    let mut instrumentation_changes = Vec::new();
    let mut training_runs = Vec::new();
    let mut kind_breakdowns = Vec::new();
    let mut trace_reach = Vec::new();
    let mut loaded: Vec<Option<Vec<Vec<_>>>> = vec![None; s.strategies.len()];
    // Per arm, the evaluations of its invariant strategies, by name.
    let mut scored: HashMap<usize, HashMap<String, (Evaluation, KindBreakdown)>> = HashMap::new();
    for (i, st) in s.strategies.iter().enumerate() {
        let arm = s.runs_of(i);
        if loaded[arm].is_none() {
            loaded[arm] = Some(load_arm(ctx, Arm::Monitor(arm))?);
        }
        let runs = loaded[arm].as_ref().expect("loaded above");
        // The original's training runs that ended normally, by test.
        let training: Vec<(usize, &Observation)> = ctx
            .training_tests()
            .into_iter()
            .map(|t| (t, &runs[0][t].1))
            .filter(|(_, o)| **o != Observation::Abnormal)
            .collect();
        let training_tests: Vec<usize> = training.iter().map(|(t, _)| *t).collect();
        let observed = observations(runs);
        let mut changed = Vec::new();
        for (v, row) in runs.iter().enumerate() {
            for (t, (r, _)) in row.iter().enumerate() {
                let p = &plain[v][t].0;
                if (r.abnormal, r.status, &r.stdout, &r.outputs)
                    != (p.abnormal, p.status, &p.stdout, &p.outputs)
                {
                    changed.push(format!("{}/{}", s.versions[v].name, tests[t]));
                }
            }
        }
        training_runs.push((st.name.clone(), training.len()));
        instrumentation_changes.push((st.name.clone(), changed));
        match st.detector {
            Detector::Ranges => {
                let training: Vec<Run> = training
                    .iter()
                    .filter_map(|(t, o)| match o {
                        Observation::Ranges(set) => Some(Run {
                            name: tests[*t].clone(),
                            set: set.clone(),
                        }),
                        _ => None,
                    })
                    .collect();
                let scoring = Progress::new(format!("experiment (scoring {})", st.name), "strategies", 1);
                evaluations.push(evaluate(
                    &st.name,
                    &oracle,
                    &training,
                    &training_tests,
                    &observed,
                    &s.schedule(),
                ));
                scoring.step();
                scoring.finish();
            }
            Detector::Invariants => {
                // Every invariant strategy of this arm is scored at its first one.
                if let Entry::Vacant(slot) = scored.entry(arm) {
                    let learning = ctx.learned(arm)?;
                    trace_reach.push(arm_reach(ctx, arm, &oracle, &observed)?);
                    let results = evaluate_invariants(
                        &learning.judges,
                        &learning.sets,
                        &oracle,
                        &learning.training_tests,
                        &observed,
                        &s.schedule(),
                    )?;
                    let names = learning.judges.iter().map(|j| j.name.clone());
                    slot.insert(names.zip(results).collect());
                }
                let (evaluation, kinds) = scored
                    .get_mut(&arm)
                    .and_then(|by_name| by_name.remove(&st.name))
                    .expect("scored with its arm");
                evaluations.push(evaluation);
                kind_breakdowns.push(kinds);
            }
        }
    }
    Ok(Results {
        oracle,
        evaluations,
        instrumentation_changes,
        training_runs,
        kind_breakdowns,
        abnormal,
        trace_reach,
    })
}
