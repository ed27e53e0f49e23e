//! The unit steps of a study (one build, one run), their order in phases,
//! and their textual ids, shared by the local executor and `--plan`.

use anyhow::bail;

use super::study::{Detector, Study};

/// How a version is built: plain (for the oracle), instrumented by a
/// strategy, or woven with a report's aspect (`study.reports[i]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arm {
    Plain,
    Report(usize),
    Monitor(usize),
}

/// Directory name of the plain arm.
pub const PLAIN: &str = "plain";
/// Suffix of report arms' directory names.
pub const REPORT_SUFFIX: &str = ".report";
/// The id of the learning step.
pub const LEARN: &str = "learn";

impl Arm {
    /// Directory name under `builds/` and `runs/`.
    pub fn dir_name(self, study: &Study) -> String {
        match self {
            Arm::Plain => PLAIN.to_string(),
            Arm::Report(r) => format!("{}{REPORT_SUFFIX}", study.reports[r].name),
            Arm::Monitor(s) => study.strategies[s].name.clone(),
        }
    }

    fn parse(study: &Study, name: &str) -> Option<Arm> {
        if name == PLAIN {
            return Some(Arm::Plain);
        }
        if let Some(base) = name.strip_suffix(REPORT_SUFFIX) {
            return study.reports.iter().position(|r| r.name == base).map(Arm::Report);
        }
        study
            .strategies
            .iter()
            .position(|s| s.name == name)
            .map(Arm::Monitor)
    }
}

/// One step of a study.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    Build {
        arm: Arm,
        version: usize,
    },
    Run {
        arm: Arm,
        version: usize,
        test: usize,
    },
    /// Turning the training runs of `study.reports[i]` into its file.
    Report(usize),
    /// Learning the invariants of every invariant arm from the original's
    /// training runs, before the faulty versions' runs are checked.
    Learn,
}

impl Job {
    /// What steps of this kind are called in progress lines.
    pub fn kind(self) -> &'static str {
        match self {
            Job::Build { .. } => "builds",
            Job::Run { .. } => "runs",
            Job::Report(_) => "report files",
            Job::Learn => "learned sets",
        }
    }

    /// `build/ARM/VERSION`, `run/ARM/VERSION/TEST`, `report/NAME` or
    /// `learn`.
    pub fn id(self, study: &Study) -> String {
        match self {
            Job::Build { arm, version } => {
                format!("build/{}/{}", arm.dir_name(study), study.versions[version].name)
            }
            Job::Run { arm, version, test } => format!(
                "run/{}/{}/{}",
                arm.dir_name(study),
                study.versions[version].name,
                study.tests[test].name
            ),
            Job::Report(r) => format!("report/{}", study.reports[r].name),
            Job::Learn => LEARN.to_string(),
        }
    }

    /// Inverse of [`Job::id`].
    pub fn parse(study: &Study, id: &str) -> anyhow::Result<Job> {
        let parts: Vec<&str> = id.split('/').collect();
        let arm = |n: &str| Arm::parse(study, n);
        let version = |n: &str| study.versions.iter().position(|v| v.name == n);
        let test = |n: &str| study.tests.iter().position(|t| t.name == n);
        let job = match parts.as_slice() {
            ["build", a, v] => arm(a)
                .zip(version(v))
                .map(|(arm, version)| Job::Build { arm, version }),
            ["run", a, v, t] => arm(a)
                .zip(version(v))
                .zip(test(t))
                .map(|((arm, version), test)| Job::Run { arm, version, test }),
            ["report", r] => study.reports.iter().position(|x| x.name == *r).map(Job::Report),
            [LEARN] => Some(Job::Learn),
            _ => None,
        };
        match job {
            Some(j) => Ok(j),
            None => bail!("{}: no step {id:?} in this study", study.file.display()),
        }
    }
}

/// The steps a task of a plan names: one step's id, or `run/ARM/VERSION`
/// for every run of one build (the runs phase's tasks, so that a plan has
/// one line, and one shard of results, per build rather than per run).
pub fn parse_task(study: &Study, id: &str) -> anyhow::Result<Vec<Job>> {
    let all = phases(study);
    let runs_of = all.iter().flatten().filter(|job| match job {
        Job::Run { .. } => task_id(study, **job) == id,
        _ => false,
    });
    let jobs: Vec<Job> = runs_of.copied().collect();
    if jobs.is_empty() {
        return Ok(vec![Job::parse(study, id)?]);
    }
    Ok(jobs)
}

/// The task of a plan a step belongs to: `run/ARM/VERSION` for a run, the
/// step's own id otherwise.
pub fn task_id(study: &Study, job: Job) -> String {
    match job {
        Job::Run { arm, version, .. } => {
            format!("run/{}/{}", arm.dir_name(study), study.versions[version].name)
        }
        _ => job.id(study),
    }
}

/// The arms whose runs invariant strategies judge (each strategy's own,
/// or that of the first one built and run the same way).
pub fn invariant_arms(study: &Study) -> Vec<usize> {
    (0..study.strategies.len())
        .filter(|&i| study.runs_of(i) == i && study.strategies[i].detector == Detector::Invariants)
        .collect()
}

/// The study's steps in dependency order: each phase needs only the
/// results of earlier phases, and its steps are independent. The faulty
/// versions' runs of invariant arms come last, after the learning step:
/// each is checked against the learned invariants as it finishes.
pub fn phases(study: &Study) -> Vec<Vec<Job>> {
    let reports: Vec<usize> = (0..study.reports.len()).collect();
    let training: Vec<usize> = (0..study.tests.len())
        .filter(|&t| study.training.contains(&study.tests[t].name))
        .collect();
    // A strategy built and run as an earlier one uses that one's runs.
    let arms: Vec<Arm> = std::iter::once(Arm::Plain)
        .chain(
            (0..study.strategies.len())
                .filter(|&i| study.runs_of(i) == i)
                .map(Arm::Monitor),
        )
        .collect();
    let checked = invariant_arms(study);
    let is_checked =
        |arm: Arm, version: usize| matches!(arm, Arm::Monitor(i) if version > 0 && checked.contains(&i));
    let runs = |checking: bool| -> Vec<Job> {
        arms.iter()
            .flat_map(|&arm| (0..study.versions.len()).map(move |version| (arm, version)))
            .filter(|&(arm, version)| is_checked(arm, version) == checking)
            .flat_map(|(arm, version)| {
                (0..study.tests.len()).map(move |test| Job::Run { arm, version, test })
            })
            .collect()
    };
    let phases = vec![
        reports
            .iter()
            .map(|&s| Job::Build {
                arm: Arm::Report(s),
                version: 0,
            })
            .collect(),
        reports
            .iter()
            .flat_map(|&s| {
                training.iter().map(move |&test| Job::Run {
                    arm: Arm::Report(s),
                    version: 0,
                    test,
                })
            })
            .collect(),
        reports.iter().map(|&r| Job::Report(r)).collect(),
        arms.iter()
            .flat_map(|&arm| (0..study.versions.len()).map(move |version| Job::Build { arm, version }))
            .collect(),
        runs(false),
        if checked.is_empty() {
            Vec::new()
        } else {
            vec![Job::Learn]
        },
        runs(true),
    ];
    phases.into_iter().filter(|p: &Vec<Job>| !p.is_empty()).collect()
}
