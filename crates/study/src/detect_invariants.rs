//! The likely-invariant detector: for every (percentage, draw) of the
//! schedule, learn invariants from that subset of the original's training
//! traces, then predict that a test run fails when its trace violates one.
//!
//! The strategies that share their runs are scored together, and each
//! trace is read once: a training run is fed to every engine whose subset
//! holds it (the engines learn in parallel, one set per subset and
//! confidence), and each test run is checked once against every learned
//! set the strategies use; each strategy's rule then judges those findings. Besides the scores, the
//! detector says which kinds of invariant flagged failing runs and which
//! raised alarms on passing runs ([`KindBreakdown`]).
//!
//! With `holdout`, each subset is also split in two halves by position;
//! invariants learned on one half are checked on the other half's runs,
//! which all pass, and every (program point, kind) that one of them
//! violated is judged not to generalise: test runs are not flagged by it.
//! Only the original's training runs decide this, never a test label.
//! With the `count` hold-out, nothing is dropped: the number of (program
//! point, kind) pairs each training run violated there sets a threshold,
//! the count that all but the alarm budget's share of them stayed within,
//! and a test run is flagged only when it violates more pairs than that
//! (checked against the whole subset's invariants, which are fewer than a
//! half's, so the threshold errs towards fewer alarms).
//!
//! The `halves` hold-out checks a test run against each half's invariants
//! instead, the very sets the training counts were taken against, and flags
//! it only when it violates more pairs than the threshold against both:
//! the count of a test run against a half is then comparable with the
//! training runs' (the whole subset's invariants include some learned
//! only from more runs than a half holds, which a test run may break where
//! no training run could). Its threshold takes the test run's own place
//! into account (the conformal rank): all but the budget's share of the
//! training runs and the test run stay within it; with fewer than 100 /
//! budget - 1 training runs no rank is that safe, and it is the largest
//! count.
//!
//! The `split` hold-out counts the pairs at function entries and exits
//! apart from those at inner points (Daikon's `:::POINT`s: loop heads,
//! branch outcomes), each against a threshold at half the alarm budget,
//! and flags a run over either.
//!
//! The `score` hold-out weighs each violated pair by how rarely the
//! held-out training runs broke it ([`Rarity`]) and flags a run whose
//! weights sum over the conformal rank of the held-out runs' own scores
//! (each left out of the weights it is scored with); `score_invariants`
//! weighs each invariant (point, kind, variables) instead, `score_known`
//! only the pairs of invariants a half learned.
//!
//! With `unseen_points`, a test run that reaches a point (of the chosen
//! kinds) that no training run of the subset reached is flagged by a
//! finding of kind `UnseenPoint`; hold-out judges those like the others (a
//! point one half reached and the other did not does not generalise).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use rayon::prelude::*;
use serde::Serialize;
use weft_invariants::{Checks, Config, Engine, KindSet};
use weft_monitor::trace::runs::{check_traces, learn_file};
use weft_monitor::trace::unseen::UNSEEN_KIND;
use weft_monitor::trace::{TraceFile, UnseenPoints};

use super::evaluate::{Evaluation, Judged, Schedule, TrainingSet, score};
use super::findings::{Findings, Key, Keyed, Pairs, SetId};
use super::holdout_split::{Layout, Part, Split, lay_out};
use super::matrix::{FaultMatrix, Observation};
use super::rarity::Rarity;
use super::run_records::read_traces;
use super::study::Holdout;
use weft_run::Progress;

/// Per kind of invariant, at the study's largest training percentage
/// (pooled over its learned sets, each judging the runs of the tests it
/// did not train on): how many failing runs a violated invariant of that
/// kind flagged, and how many passing ones (alarms on passing runs).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindBreakdown {
    pub strategy: String,
    pub percentage: u32,
    pub rows: Vec<KindRow>,
}

/// One kind's line of a [`KindBreakdown`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindRow {
    pub kind: String,
    /// (failing run, draw) pairs in which the kind was violated.
    pub failing_flagged: u64,
    /// (passing run, draw) pairs in which it was: alarms on passing runs.
    pub passing_flagged: u64,
    /// The original's unseen runs (judged by the folds at 100%, by the
    /// draws below) in which a violation of the kind raised an alarm.
    pub original_flagged: u64,
    /// Faulty versions with at least one failing run it flagged.
    pub versions: BTreeSet<String>,
}

/// What checking one test run against each learned set gave: pass or not,
/// and the kinds of the invariants violated.
type Verdicts = Vec<Option<(bool, BTreeSet<String>)>>;

/// Per distinct learner (see [`Options::learner`]), per engine (see
/// [`SetId`]), what it learned.
type PerLearner = Vec<Vec<Arc<Checks>>>;

/// One learned set, and what hold-out decided for it.
struct Learned {
    set: SetId,
    rule: Rule,
}

/// How a learned set's findings flag a run.
enum Rule {
    /// Any finding not in the set of unstable pairs flags it (no hold-out:
    /// the set is empty).
    Stable(Pairs),
    /// More violated (program point, kind) pairs than this flag it.
    Over(usize),
    /// More violated pairs than this against each half's set flag it.
    OverBoth([SetId; 2], usize),
    /// More violated pairs at entries and exits than the first, or more
    /// at inner points than the second, flag it.
    OverEither([usize; 2]),
    /// A rarity score of the violated pairs (or invariants) over this
    /// flags it.
    Weighted(Rarity, f64, Key),
}

/// How the invariant detector judges runs: a strategy's options.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub holdout: Holdout,
    pub unseen: UnseenPoints,
    /// Daikon's `conf_limit`.
    pub confidence: f64,
    /// The kinds of invariant never learned.
    pub kinds_off: KindSet,
    /// Alarms allowed on the original's unseen runs, in percent: the
    /// `count` hold-out's threshold lets this share of training runs over.
    pub alarm_budget: f64,
}

impl Options {
    /// What the engines learn with (the confidence limit's bits and the
    /// kinds left out): judges alike here share their learned sets.
    fn learner(&self) -> (u64, KindSet) {
        (self.confidence.to_bits(), self.kinds_off)
    }
}

/// An invariant strategy to score: its name and options.
#[derive(Debug, Clone)]
pub struct Judge {
    pub name: String,
    pub options: Options,
}

/// Every learned set the invariant strategies of one arm (the same aspect
/// and arguments) use, learned from the original's training runs: a set
/// several strategies use is learned once, and a run is checked once
/// against it.
pub struct LearnedSets {
    /// Per judge, one learned set per subset of [`Schedule::sets`].
    judges: Vec<Vec<Learned>>,
    /// `checks[learner][engine]`.
    checks: PerLearner,
    /// Which runs each subset judges: a run is checked against those
    /// subsets' sets only.
    judged: Judged,
}

impl LearnedSets {
    /// Learns every set `judges` use from the original's training runs'
    /// packed traces (`training`, of the tests `training_tests`, out of
    /// `tests`), along `schedule`.
    pub fn learn(
        judges: &[Judge],
        training: &[Arc<[u8]>],
        training_tests: &[usize],
        tests: usize,
        schedule: &Schedule,
    ) -> anyhow::Result<LearnedSets> {
        let sets = schedule.sets(training.len());
        let progress = Progress::new(
            format!("experiment (learning {})", names(judges)),
            "runs",
            training.len(),
        );
        let (judges, checks) = learn_all(training, &sets, judges, &progress)?;
        progress.finish();
        Ok(LearnedSets {
            judges,
            checks,
            judged: Judged::new(&sets, training_tests, tests, schedule.judging),
        })
    }

    /// The judges' learned sets that judge the run of `test` on `row` (0:
    /// the original, else a faulty version): per judge, each subset's
    /// (`None` where the subset does not judge it).
    fn judging(&self, row: usize, test: usize) -> impl Iterator<Item = Vec<Option<&Learned>>> + '_ {
        self.judges.iter().map(move |learned| {
            (0..learned.len())
                .map(|i| self.judged.judges(i, row, test).then(|| &learned[i]))
                .collect()
        })
    }

    /// Checks the run of `test` on `row` (0: the original, else a faulty
    /// version) against every set its judges read among the subsets that
    /// judge it.
    pub fn check(
        &self,
        traces: &[(PathBuf, TraceFile)],
        row: usize,
        test: usize,
    ) -> anyhow::Result<Findings> {
        // Each set read, and whether a rule weighs its invariants (not
        // only its pairs): those are kept only then.
        let mut needed: Vec<(SetId, bool)> = Vec::new();
        for learned in self.judging(row, test) {
            for l in learned.into_iter().flatten() {
                let invariants = matches!(l.rule, Rule::Weighted(_, _, Key::Invariant));
                for set in l.reads() {
                    match needed.iter_mut().find(|(s, _)| *s == set) {
                        Some((_, inv)) => *inv |= invariants,
                        None => needed.push((set, invariants)),
                    }
                }
            }
        }
        let wanted = |set: SetId| needed.iter().find(|(s, _)| *s == set).map(|&(_, inv)| inv);
        // Each set checked, and the sets its findings give: with or
        // without the unseen points' findings.
        let mut plan: Vec<(SetId, Vec<(SetId, bool)>)> = Vec::new();
        for &(set, _) in &needed {
            if plan.iter().any(|(_, gives)| gives.iter().any(|&(s, _)| s == set)) {
                continue;
            }
            let [off, all] = [UnseenPoints::Off, UnseenPoints::All].map(|unseen| SetId { unseen, ..set });
            if set.unseen != UnseenPoints::Inner && wanted(off).is_some() && wanted(all).is_some() {
                // One check reporting every unseen point gives both: those
                // only add findings of their own kind.
                plan.push((all, vec![(off, true), (all, false)]));
            } else {
                plan.push((set, vec![(set, false)]));
            }
        }
        let against: Vec<(&Checks, UnseenPoints)> = plan
            .iter()
            .map(|&(set, _)| (self.checks[set.learner][set.engine].as_ref(), set.unseen))
            .collect();
        let mut findings = Findings::default();
        for ((_, gives), keyed) in plan.iter().zip(violated(&against, traces)?) {
            for &(set, without_unseen) in gives {
                let mut keyed = keyed.clone();
                if without_unseen {
                    // A pair's kind, or an invariant's `kind(variables)`.
                    for k in &mut keyed {
                        k.retain(|(_, key)| key.split('(').next() != Some(UNSEEN_KIND));
                    }
                }
                if wanted(set) != Some(true) {
                    keyed[Key::Invariant as usize].clear();
                }
                findings.sets.push((set, keyed));
            }
        }
        Ok(findings)
    }
}

/// The judges' names, for progress lines.
fn names(judges: &[Judge]) -> String {
    let names: Vec<&str> = judges.iter().map(|j| j.name.as_str()).collect();
    names.join(", ")
}

/// Scores invariant strategies that share their runs (the same aspect and
/// arguments) from what checking each run against the sets `learned`
/// found: a faulty version's run was checked as it finished (its findings
/// are stored), the original's are checked here from their traces.
/// `training_tests[i]` is the test of the original's `i`-th training run;
/// `observed[row][test]` holds the original's runs (row 0), then the faulty
/// versions' in the oracle's order. One result per judge, in order.
pub fn evaluate_invariants(
    judges: &[Judge],
    learned: &LearnedSets,
    oracle: &FaultMatrix,
    training_tests: &[usize],
    observed: &[Vec<Observation>],
    schedule: &Schedule,
) -> anyhow::Result<Vec<(Evaluation, KindBreakdown)>> {
    let sets = schedule.sets(training_tests.len());
    let cells: Vec<(usize, usize)> = (0..observed.len())
        .flat_map(|row| (0..observed[row].len()).map(move |t| (row, t)))
        .collect();
    let scoring = Progress::new(
        format!("experiment (scoring {})", names(judges)),
        "runs",
        cells.len(),
    );
    // Per cell, per judge, per learned set.
    let verdicts: Vec<Vec<Verdicts>> = cells
        .par_iter()
        .map(|&(row, t)| {
            let found = verdicts(learned, (row, t), &observed[row][t]);
            scoring.step();
            found
        })
        .collect::<anyhow::Result<_>>()?;
    scoring.finish();
    let tests = oracle.tests.len();
    Ok(judges
        .iter()
        .enumerate()
        .map(|(j, judge)| {
            let at = |row: usize, t: usize| &verdicts[row * tests + t][j];
            let evaluation = score(&judge.name, oracle, training_tests, schedule, |i, row, t| {
                at(row, t)[i].as_ref().expect("scored only where judged").0
            });
            let breakdown = breakdown(&judge.name, oracle, schedule, (&sets, &learned.judged), at);
            (evaluation, breakdown)
        })
        .collect())
}

/// Which kinds flagged which runs at the schedule's largest percentage;
/// `at(row, test)` gives a run's verdicts, one per learned set.
fn breakdown<'v>(
    strategy: &str,
    oracle: &FaultMatrix,
    schedule: &Schedule,
    (sets, judged): (&[TrainingSet], &Judged),
    at: impl Fn(usize, usize) -> &'v Verdicts,
) -> KindBreakdown {
    let top = schedule.percentages.last().copied().unwrap_or(100);
    let mut rows: BTreeMap<String, KindRow> = BTreeMap::new();
    let kinds = |row: usize, t: usize, i: usize| &at(row, t)[i].as_ref().expect("judged").1;
    for i in (0..sets.len()).filter(|&i| sets[i].percentage == top) {
        for t in 0..oracle.tests.len() {
            if judged.judges(i, 0, t) {
                for kind in kinds(0, t, i) {
                    kind_row(&mut rows, kind).original_flagged += 1;
                }
            }
            for (v, version) in oracle.versions.iter().enumerate() {
                if !judged.judges(i, v + 1, t) {
                    continue;
                }
                for kind in kinds(v + 1, t, i) {
                    let row = kind_row(&mut rows, kind);
                    if oracle.cells[v][t] {
                        row.passing_flagged += 1;
                    } else {
                        row.failing_flagged += 1;
                        row.versions.insert(version.clone());
                    }
                }
            }
        }
    }
    KindBreakdown {
        strategy: strategy.to_string(),
        percentage: top,
        rows: rows.into_values().collect(),
    }
}

/// The breakdown's row of `kind`, made empty when it is not there yet.
fn kind_row<'a>(rows: &'a mut BTreeMap<String, KindRow>, kind: &str) -> &'a mut KindRow {
    rows.entry(kind.to_string()).or_insert_with(|| KindRow {
        kind: kind.to_string(),
        failing_flagged: 0,
        passing_flagged: 0,
        original_flagged: 0,
        versions: BTreeSet::new(),
    })
}

/// The distinct values of `key` over the judges, in first-seen order, and
/// each judge's index into them.
fn distinct<K: PartialEq + Copy>(judges: &[Judge], key: impl Fn(&Options) -> K) -> (Vec<K>, Vec<usize>) {
    let mut values: Vec<K> = Vec::new();
    let index = judges
        .iter()
        .map(|j| {
            let k = key(&j.options);
            values.iter().position(|v| *v == k).unwrap_or_else(|| {
                values.push(k);
                values.len() - 1
            })
        })
        .collect();
    (values, index)
}

/// Per judge, one learned set per subset. Each confidence's sets are
/// learned once (per subset its whole set, and the parts of the hold-out
/// splits its judges need: [`lay_out`]), each training run's traces read
/// once and fed to the engines whose part learns it; hold-out's checks of
/// the training runs are made once per confidence, unseen-points mode and
/// split.
fn learn_all(
    training: &[Arc<[u8]>],
    subsets: &[TrainingSet],
    judges: &[Judge],
    progress: &Progress,
) -> anyhow::Result<(Vec<Vec<Learned>>, PerLearner)> {
    let (learners, learner_of) = distinct(judges, Options::learner);
    // Per learner, the parts its judges' hold-out splits need, and
    // where each subset's are ([`lay_out`]).
    let (parts, layouts): (Vec<Vec<Part>>, Vec<Vec<Layout>>) = (0..learners.len())
        .map(|c| {
            let mut needed = [false; 2];
            for (j, judge) in judges.iter().enumerate() {
                if let Some(split) = Split::of(judge.options.holdout).filter(|_| learner_of[j] == c) {
                    needed[split as usize] = true;
                }
            }
            let mut parts = Vec::new();
            let layout = lay_out(subsets, needed, &mut parts);
            (parts, layout)
        })
        .unzip();
    // One flat list of engines (so that they learn in parallel): each
    // learner's parts in turn.
    let flat: Vec<&Part> = parts.iter().flatten().collect();
    let mut engines: Vec<Engine> = parts
        .iter()
        .zip(&learners)
        .flat_map(|(parts, &(bits, off))| {
            let config = Config {
                conf_limit: f64::from_bits(bits),
                off,
                ..Config::default()
            };
            parts.iter().map(move |_| Engine::new(config))
        })
        .collect();
    for (run, packed) in training.iter().enumerate() {
        progress.step();
        let traces = read_traces(packed)?;
        engines
            .par_iter_mut()
            .zip(&flat)
            .filter(|(_, part)| part.learns.binary_search(&run).is_ok())
            .try_for_each(|(engine, _)| {
                traces.iter().try_for_each(|(file, trace)| {
                    learn_file(engine, trace).with_context(|| format!("learning from {}", file.display()))
                })
            })?;
    }
    let mut finished: Vec<Checks> = engines.into_par_iter().map(|e| Checks::new(e.finish())).collect();
    // A run is checked against many of them at once: an invariant several
    // learned alike is then checked once.
    Checks::number_alike(&mut finished);
    let mut finished = finished.into_iter().map(Arc::new);
    let checks: PerLearner = parts
        .iter()
        .map(|parts| finished.by_ref().take(parts.len()).collect())
        .collect();
    let (holdouts, holdout_of) = distinct(judges, |o| (o.learner(), o.unseen, Split::of(o.holdout)));
    let mut held: Vec<Option<HeldOut>> = Vec::new();
    for &(c, unseen, split) in &holdouts {
        let c = learners.iter().position(|&x| x == c).expect("a judge's learner");
        held.push(match split {
            Some(split) => Some(hold_out(
                training,
                &parts[c],
                &layouts[c],
                split,
                &checks[c],
                unseen,
            )?),
            None => None,
        });
    }
    let learned = judges
        .iter()
        .enumerate()
        .map(|(j, judge)| {
            let c = learner_of[j];
            rules(
                (c, &layouts[c], &checks[c]),
                held[holdout_of[j]].as_ref(),
                judge.options,
            )
        })
        .collect();
    Ok((learned, checks))
}

/// What hold-out found per subset: per training run, what it violated
/// against the set of the part that held it out.
struct HeldOut {
    runs: Vec<Vec<Keyed>>,
}

/// Checks each training run of every subset against the set of the part
/// of `split` that holds it out (a part that learned nothing checks none).
fn hold_out(
    training: &[Arc<[u8]>],
    parts: &[Part],
    layouts: &[Layout],
    split: Split,
    checks: &[Arc<Checks>],
    unseen: UnseenPoints,
) -> anyhow::Result<HeldOut> {
    let mut held = HeldOut {
        runs: vec![Vec::new(); layouts.len()],
    };
    let holding: Vec<(usize, usize)> = layouts
        .iter()
        .flat_map(|l| l.parts[split as usize].clone().map(move |e| (l.subset, e)))
        .filter(|&(_, e)| !parts[e].learns.is_empty())
        .collect();
    // Each training run read once and checked in one replay against
    // every part holding it out; the runs in parallel, kept in order.
    let found: Vec<Vec<(usize, Keyed)>> = training
        .par_iter()
        .enumerate()
        .map(|(run, packed)| {
            let here: Vec<(usize, usize)> = holding
                .iter()
                .copied()
                .filter(|&(_, e)| parts[e].checks.binary_search(&run).is_ok())
                .collect();
            let against: Vec<(&Checks, UnseenPoints)> =
                here.iter().map(|&(_, e)| (checks[e].as_ref(), unseen)).collect();
            let keyed = violated(&against, &read_traces(packed)?)?;
            Ok(here.into_iter().map(|(subset, _)| subset).zip(keyed).collect())
        })
        .collect::<anyhow::Result<_>>()?;
    for (subset, pairs) in found.into_iter().flatten() {
        held.runs[subset].push(pairs);
    }
    Ok(held)
}

/// One judge's learned sets: each subset's whole set (of `confidence`,
/// whose engines learned `checks`, laid out per subset as `layouts` say)
/// under the rule its hold-out makes.
fn rules(
    (learner, layouts, checks): (usize, &[Layout], &[Arc<Checks>]),
    held: Option<&HeldOut>,
    options: Options,
) -> Vec<Learned> {
    let set = |engine: usize| SetId {
        learner,
        engine,
        unseen: options.unseen,
    };
    layouts
        .iter()
        .map(|layout| {
            let i = layout.subset;
            let runs = held.map_or(&[][..], |h| &h.runs[i][..]);
            // The counts of one class of point (0: entries and exits, 1:
            // inner points), or of both (2).
            let counts = |class: usize| -> Vec<usize> {
                runs.iter()
                    .map(|keyed| {
                        let c = split_count(&keyed[Key::Pair as usize]);
                        if class == 2 { c[0] + c[1] } else { c[class] }
                    })
                    .collect()
            };
            let parts = |split: Split| -> Vec<&Checks> {
                layout.parts[split as usize]
                    .clone()
                    .map(|e| &*checks[e])
                    .collect()
            };
            let budget = options.alarm_budget;
            let rule = match options.holdout {
                Holdout::Count => Rule::Over(threshold(counts(2), budget)),
                Holdout::Halves => {
                    let halves = layout.parts[Split::Halves as usize].start;
                    Rule::OverBoth(
                        [set(halves), set(halves + 1)],
                        conformal_threshold(counts(2), budget),
                    )
                }
                Holdout::Split => Rule::OverEither([
                    threshold(counts(0), budget / 2.0),
                    threshold(counts(1), budget / 2.0),
                ]),
                Holdout::Score => weighted(runs, Key::Pair, budget, None),
                Holdout::ScoreInvariants => weighted(runs, Key::Invariant, budget, None),
                Holdout::ScoreKnown => {
                    weighted(runs, Key::Pair, budget, Some(learned_keys(&parts(Split::Halves))))
                }
                Holdout::Folds => Rule::Over(conformal_threshold(counts(2), budget)),
                Holdout::FoldsScore => {
                    weighted(runs, Key::Pair, budget, Some(learned_keys(&parts(Split::Folds))))
                }
                Holdout::Pairs => Rule::Stable(
                    runs.iter()
                        .flat_map(|keyed| keyed[Key::Pair as usize].iter().cloned())
                        .collect(),
                ),
                Holdout::Off => Rule::Stable(Pairs::new()),
            };
            Learned {
                set: set(layout.whole),
                rule,
            }
        })
        .collect()
}

/// The rule of the `score` hold-outs: `key`'s rarity over the held-out
/// `runs` (weighing only the `known` pairs, if given), and the conformal
/// rank of their left-out scores.
fn weighted(runs: &[Keyed], key: Key, budget: f64, known: Option<Pairs>) -> Rule {
    let sets = || runs.iter().map(|keyed| &keyed[key as usize]);
    let rarity = Rarity::new(sets());
    let rarity = match known {
        Some(known) => rarity.known(known),
        None => rarity,
    };
    let scores = sets().map(|set| rarity.left_out_score(set)).collect();
    let most = conformal_threshold(scores, budget);
    Rule::Weighted(rarity, most, key)
}

/// What a run's traces violate against each of `sets` (learned
/// invariants, and which unseen points are findings), keyed both ways,
/// checked in one replay of the traces.
fn violated(sets: &[(&Checks, UnseenPoints)], traces: &[(PathBuf, TraceFile)]) -> anyhow::Result<Vec<Keyed>> {
    Ok(check_traces(sets, traces)?
        .into_iter()
        .map(|result| {
            let mut keyed = Keyed::default();
            for f in result.findings {
                let vars: Vec<&str> = f.witness.iter().map(|(name, _)| name.as_str()).collect();
                keyed[Key::Invariant as usize].insert((f.point.clone(), invariant_key(&f.kind, &vars)));
                keyed[Key::Pair as usize].insert((f.point, f.kind));
            }
            keyed
        })
        .collect())
}

/// An invariant's name in [`Key::Invariant`]: its kind and variables.
fn invariant_key(kind: &str, vars: &[&str]) -> String {
    format!("{kind}({})", vars.join(", "))
}

/// The (program point, kind) pairs of the invariants `sets` learned.
fn learned_keys(sets: &[&Checks]) -> Pairs {
    sets.iter()
        .flat_map(|c| c.invariants())
        .map(|(point, i)| (point.to_string(), i.kind.clone()))
        .collect()
}
/// The fewest violated pairs that at most `budget` percent of `counts`
/// exceed (0 for no counts: any violation flags).
fn threshold(mut counts: Vec<usize>, budget: f64) -> usize {
    counts.sort_unstable_by(|a, b| b.cmp(a));
    // Truncation: the allowance never exceeds the budget.
    let allowed = (counts.len() as f64 * budget / 100.0) as usize;
    counts.get(allowed).copied().unwrap_or(0)
}

/// The fewest violated pairs that at most `budget` percent of `counts` and
/// one more count (a test run's, exchangeable with them) exceed: the
/// `allowed` largest of `counts` may be over it, where `allowed + 1` runs
/// of the `n + 1` are within the budget; the largest count when even one
/// run over would exceed it (0 for no counts: any violation flags).
fn conformal_threshold<T: PartialOrd + Copy + Default>(mut counts: Vec<T>, budget: f64) -> T {
    counts.sort_unstable_by(|a, b| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal));
    let over = ((counts.len() + 1) as f64 * budget / 100.0) as usize;
    counts.get(over.saturating_sub(1)).copied().unwrap_or_default()
}

impl Learned {
    /// The sets whose findings its rule reads.
    fn reads(&self) -> Vec<SetId> {
        match &self.rule {
            Rule::OverBoth(halves, _) => halves.to_vec(),
            _ => vec![self.set],
        }
    }
}

/// The run of `test` on `row` judged by every judge's sets that judge it
/// (`None` for the others): an abnormal run fails them all; otherwise each
/// set's rule decides from the run's findings (checked here when the run
/// kept its traces), and the kinds it reports are those of the findings
/// that counted.
fn verdicts(
    learned: &LearnedSets,
    (row, test): (usize, usize),
    observed: &Observation,
) -> anyhow::Result<Vec<Verdicts>> {
    let checked;
    let findings = match observed {
        Observation::Abnormal => {
            return Ok(learned
                .judging(row, test)
                .map(|sets| sets.iter().map(|l| l.map(|_| (false, BTreeSet::new()))).collect())
                .collect());
        }
        Observation::Trace(packed) => {
            checked = learned.check(&read_traces(packed)?, row, test)?;
            &checked
        }
        Observation::Checked(findings) => findings.as_ref(),
        Observation::Ranges(_) => unreachable!("an invariant strategy's run was loaded as ranges"),
    };
    learned
        .judging(row, test)
        .map(|sets| {
            sets.into_iter()
                .map(|l| {
                    l.map(|l| {
                        let kinds = judged(findings, l)?;
                        Ok((kinds.is_empty(), kinds))
                    })
                    .transpose()
                })
                .collect()
        })
        .collect()
}

/// The kinds of the findings that flag a run under one learned set's rule
/// (none: it passes).
fn judged(findings: &Findings, l: &Learned) -> anyhow::Result<BTreeSet<String>> {
    if let Rule::OverBoth([a, b], most) = &l.rule {
        let a = &findings.keyed(*a)?[Key::Pair as usize];
        let b = &findings.keyed(*b)?[Key::Pair as usize];
        return Ok(if a.len() > *most && b.len() > *most {
            a.iter().chain(b).map(|(_, kind)| kind.clone()).collect()
        } else {
            BTreeSet::new()
        });
    }
    Ok(flagging(&l.rule, findings.keyed(l.set)?))
}

/// The kinds of what a run violated against a subset's whole set, when
/// that flags it under `rule` (none: it passes).
fn flagging(rule: &Rule, keyed: &Keyed) -> BTreeSet<String> {
    let pairs = &keyed[Key::Pair as usize];
    let flagged = match rule {
        Rule::Stable(unstable) => {
            return pairs
                .iter()
                .filter(|pair| !unstable.contains(*pair))
                .map(|(_, kind)| kind.clone())
                .collect();
        }
        Rule::Over(most) => pairs.len() > *most,
        Rule::Weighted(rarity, most, key) => rarity.score(&keyed[*key as usize]) > *most,
        Rule::OverEither(most) => {
            let count = split_count(pairs);
            count[0] > most[0] || count[1] > most[1]
        }
        Rule::OverBoth(..) => unreachable!("judged against each half's set"),
    };
    if flagged {
        pairs.iter().map(|(_, kind)| kind.clone()).collect()
    } else {
        BTreeSet::new()
    }
}

/// How many of `pairs` are at function entries and exits, and how many at
/// points inside functions (Daikon's `:::POINT` program points).
fn split_count(pairs: &Pairs) -> [usize; 2] {
    let inner = pairs
        .iter()
        .filter(|(point, _)| point.contains(":::POINT"))
        .count();
    [pairs.len() - inner, inner]
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use weft_invariants::{Checks, Config, Engine, KindSet};
    use weft_monitor::trace::UnseenPoints;

    use super::{
        HeldOut, Holdout, Keyed, Options, Pairs, Rule, conformal_threshold, flagging, rules, split_count,
        threshold,
    };
    use crate::holdout_split::{FOLDS, Layout};

    /// What a run violated: `OneOf` over the variable `x` at each point
    /// of `points`, a point followed by `.y` over `y` instead.
    fn keyed(points: &[&str]) -> Keyed {
        let mut keyed = Keyed::default();
        for p in points {
            let (point, var) = p.split_once('.').unwrap_or((p, "x"));
            let point = format!("u.c.{point}():::ENTER");
            keyed[1].insert((point.clone(), format!("OneOf({var})")));
            keyed[0].insert((point, "OneOf".to_string()));
        }
        keyed
    }

    /// The rule under `holdout` of one subset whose held-out runs broke
    /// `runs`.
    fn rule_of(runs: &[&[&str]], holdout: Holdout, alarm_budget: f64) -> Rule {
        let held = HeldOut {
            runs: vec![runs.iter().map(|r| keyed(r)).collect()],
        };
        let empty = || Arc::new(Checks::new(Engine::new(Config::default()).finish()));
        let options = Options {
            holdout,
            unseen: UnseenPoints::Off,
            confidence: 0.99,
            kinds_off: KindSet::daikon_off(),
            alarm_budget,
        };
        // The whole set, two halves and the folds, all empty.
        let layout = Layout {
            subset: 0,
            whole: 0,
            parts: [1..3, 3..3 + FOLDS],
        };
        let checks: Vec<_> = (0..3 + FOLDS).map(|_| empty()).collect();
        let mut learned = rules((0, &[layout], &checks), Some(&held), options);
        assert_eq!(learned.len(), 1);
        learned.remove(0).rule
    }

    /// Five held-out runs that broke `a` four times, `b` twice, `c` once
    /// and `d` never.
    const FIVE: [&[&str]; 5] = [&["a", "b"], &["a", "b"], &["a", "c"], &["a"], &[]];

    fn flags(rule: &Rule, points: &[&str]) -> bool {
        !flagging(rule, &keyed(points)).is_empty()
    }

    #[test]
    fn the_score_rule_weighs_pairs_by_rarity_and_flags_over_the_left_out_scores_rank() {
        // Left out, each run's pairs weigh ln(5 / b): a ln(5/4), b ln(5/2),
        // c ln(5/1). Scores: ln 6.25, ln 3.125 twice, ln 1.25, 0. At 50%
        // of 5 + 1 runs three may be over: the test run and the two
        // largest: the threshold is the third largest, ln 3.125.
        let rule = rule_of(&FIVE, Holdout::Score, 50.0);
        let Rule::Weighted(_, most, _) = &rule else {
            panic!("the score hold-out makes a weighted rule");
        };
        assert!((most - 3.125f64.ln()).abs() < 1e-12);
        // A test run's pairs weigh ln(6 / (b + 1)): a ln 1.2, b ln 2, c
        // ln 3, d ln 6.
        assert!(flags(&rule, &["d"]), "ln 6 > ln 3.125");
        assert!(!flags(&rule, &["c"]), "ln 3 < ln 3.125");
        assert!(flags(&rule, &["a", "c"]), "ln 3.6 > ln 3.125");
        assert!(!flags(&rule, &["a", "b"]), "ln 2.4 < ln 3.125");
        assert!(!flags(&rule, &[]));
        // The count rule at the same budget: counts 2, 2, 2, 1, 0, two of
        // five may be over: 2. One rare pair does not flag; three common
        // ones do.
        let count = rule_of(&FIVE, Holdout::Count, 50.0);
        assert!(!flags(&count, &["d"]));
        assert!(flags(&count, &["a", "b", "c"]));
        // At 1% no rank is safe with six runs: the largest score, ln 6.25.
        let strict = rule_of(&FIVE, Holdout::Score, 1.0);
        assert!(!flags(&strict, &["d"]), "ln 6 < ln 6.25");
        assert!(flags(&strict, &["c", "d"]), "ln 18 > ln 6.25");
        // The pairs hold-out drops every pair broken there: only `d` flags.
        let stable = rule_of(&FIVE, Holdout::Pairs, 1.0);
        assert!(!flags(&stable, &["a", "b", "c"]));
        assert!(flags(&stable, &["a", "d"]));
    }

    #[test]
    fn the_folds_count_flags_over_the_conformal_rank_of_every_held_out_count() {
        // Held-out counts 2, 2, 2, 1, 0. At 50% of 5 + 1 runs three may
        // be over: the test run and the two largest: the third largest, 2.
        let folds = rule_of(&FIVE, Holdout::Folds, 50.0);
        let Rule::Over(most) = &folds else {
            panic!("the folds hold-out makes a count rule");
        };
        assert_eq!(*most, 2);
        assert!(!flags(&folds, &["a", "b"]));
        assert!(flags(&folds, &["a", "b", "d"]));
        // At 80%, four: the fourth largest, 1.
        let Rule::Over(most) = rule_of(&FIVE, Holdout::Folds, 80.0) else {
            panic!("a count rule");
        };
        assert_eq!(most, 1);
        // Under 100 / budget - 1 runs, the largest count: nothing the
        // held-out runs all stayed within flags.
        let Rule::Over(most) = rule_of(&FIVE, Holdout::Folds, 1.0) else {
            panic!("a count rule");
        };
        assert_eq!(most, 2);
    }

    #[test]
    fn the_folds_score_weighs_only_pairs_the_folds_sets_learned() {
        // The fixture's fold sets learned nothing, so nothing weighs: as
        // the halves' known score, unlike the plain score.
        let folds = rule_of(&FIVE, Holdout::FoldsScore, 50.0);
        assert!(matches!(folds, Rule::Weighted(..)));
        assert!(!flags(&folds, &["a", "b", "c", "d"]));
        assert!(flags(&rule_of(&FIVE, Holdout::Score, 50.0), &["d"]));
    }

    #[test]
    fn the_invariant_score_tells_invariants_of_one_pair_apart() {
        // Every held-out run broke `a` over `x`: left out, each scores
        // ln(4 / 4) = 0 both ways, and the threshold is 0.
        let runs: [&[&str]; 4] = [&["a"]; 4];
        let pairs = rule_of(&runs, Holdout::Score, 1.0);
        let invariants = rule_of(&runs, Holdout::ScoreInvariants, 1.0);
        // Breaking `a` over `y`: the same pair, weighing ln(5 / 5) = 0; an
        // invariant none broke, weighing ln 5.
        assert!(!flags(&pairs, &["a.y"]));
        assert!(flags(&invariants, &["a.y"]));
        assert!(!flags(&invariants, &["a"]));
    }

    #[test]
    fn the_known_score_weighs_nothing_no_half_learned() {
        // The fixture's halves learned nothing: no pair weighs anything,
        // where the plain score flags `d` at 50%.
        assert!(flags(&rule_of(&FIVE, Holdout::Score, 50.0), &["d"]));
        let known = rule_of(&FIVE, Holdout::ScoreKnown, 50.0);
        assert!(!flags(&known, &["d"]));
        assert!(!flags(&known, &["a", "b", "c", "d"]));
    }

    #[test]
    fn pairs_at_inner_points_are_counted_apart_from_entries_and_exits() {
        let pairs: Pairs = [
            ("u.c.f():::ENTER", "OneOf"),
            ("u.c.f():::EXIT12", "LowerBound"),
            ("u.c.f():::POINT7", "OneOf"),
            ("u.c.f():::POINT7", "LessThan"),
            ("u.c.g():::POINT30", "NonZero"),
        ]
        .into_iter()
        .map(|(p, k)| (p.to_string(), k.to_string()))
        .collect();
        assert_eq!(split_count(&pairs), [2, 3]);
        assert_eq!(split_count(&Pairs::new()), [0, 0]);
    }

    #[test]
    fn the_threshold_lets_at_most_the_budget_share_of_counts_over_it() {
        let counts = vec![0, 9, 1, 0, 5];
        // 1% of 5 runs allows none over: the largest count.
        assert_eq!(threshold(counts.clone(), 1.0), 9);
        // 20% allows one run over.
        assert_eq!(threshold(counts.clone(), 20.0), 5);
        // 39.9% still allows only one (never more than the budget).
        assert_eq!(threshold(counts.clone(), 39.9), 5);
        assert_eq!(threshold(counts.clone(), 40.0), 1);
        // Everything allowed over: any violation flags.
        assert_eq!(threshold(counts, 100.0), 0);
        assert_eq!(threshold(Vec::new(), 1.0), 0);
    }

    #[test]
    fn the_conformal_threshold_counts_the_test_run_among_the_training_runs() {
        // 99 counts 1..=99: with the test run, 100 runs, 1% of them is one:
        // no training count may be over the threshold, so it is the largest.
        let counts: Vec<usize> = (1..=99).collect();
        assert_eq!(conformal_threshold(counts.clone(), 1.0), 99);
        // 199 counts: 200 runs, two may be over: the test run and one count.
        let counts: Vec<usize> = (1..=199).collect();
        assert_eq!(conformal_threshold(counts.clone(), 1.0), 198);
        // The plain threshold lets one of 199 over too, but one of 150
        // as well, where the conformal one lets none.
        let counts: Vec<usize> = (1..=150).collect();
        assert_eq!(threshold(counts.clone(), 1.0), 149);
        assert_eq!(conformal_threshold(counts, 1.0), 150);
        // Too few runs for the budget: the largest count.
        assert_eq!(conformal_threshold(vec![3, 7, 5], 1.0), 7);
        assert_eq!(conformal_threshold(Vec::<usize>::new(), 1.0), 0);
        // 20% of 5 + 1 runs: one may be over, the test run: the largest.
        assert_eq!(conformal_threshold(vec![0, 9, 1, 0, 5], 20.0), 9);
        // 40%: two: the test run and the largest count.
        assert_eq!(conformal_threshold(vec![0, 9, 1, 0, 5], 40.0), 5);
    }
}
