//! Running one test against one build, and reading a finished run back.
//!
//! Runs of the plain and monitored builds, the study's bulk, execute in a
//! reused scratch directory and go to the study database
//! ([`super::store`]) with what their monitor recorded, in the form the
//! detector reads ([`super::run_records`]); nothing of them stays on disk.
//! Runs of a report stage's build keep a directory each
//! (`runs/NAME.report/ORIGINAL/TEST/` with `out/`, `key`, `result.json`):
//! a report's `make` command reads their records as files.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use weft_monitor::ranges::{RangeSet, RangesError, load};

use super::cache::{Counters, KeyHasher, is_fresh, mark_fresh};
use super::exec::Ctx;
use super::findings::Findings;
use super::fsops::{copy_into, recreate};
use super::jobs::Arm;
use super::matrix::Observation;
use super::run_records::{decode_ranges, encode_ranges, pack_traces, read_trace_files};
use super::store::{Finished, Kept, RunId, Stored, Timings};
use super::study::Detector;
use weft_run::{Execution, RECORD_VERSION, RunRecord, execute};

impl Ctx<'_> {
    /// The directory of a report stage's run.
    pub fn run_dir(&self, arm: Arm, version: usize, test: usize) -> PathBuf {
        self.study
            .work_dir
            .join("runs")
            .join(arm.dir_name(self.study))
            .join(&self.study.versions[version].name)
            .join(&self.study.tests[test].name)
    }

    pub(crate) fn run_key(&self, arm: Arm, version: usize, test: usize) -> anyhow::Result<String> {
        let s = self.study;
        let build_dir = self.build_dir(arm, version);
        let build_key = std::fs::read_to_string(build_dir.join("key"))
            .with_context(|| format!("{} is not built yet", build_dir.display()))?;
        let t = &s.tests[test];
        let mut h = KeyHasher::new("run");
        h.str(RECORD_VERSION)
            .str(&build_key)
            .str(&format!("{:?}", (t, &s.env, s.timeout, s.output_cap)));
        for input in t.inputs.iter().chain(&t.stdin) {
            h.str(input).str(&self.input_hash(&s.inputs.join(input))?);
        }
        if let Some(arm) = self.checked_arm(arm, version) {
            h.str(&self.checked_key(arm)?);
        }
        Ok(h.finish())
    }

    /// The invariant arm whose learned sets a run of `version` on `arm` is
    /// checked against as it finishes: a faulty version's run of an
    /// invariant strategy (the original's keep their traces, which the
    /// invariants are learned from).
    fn checked_arm(&self, arm: Arm, version: usize) -> Option<usize> {
        match arm {
            Arm::Monitor(s) if version > 0 && self.study.strategies[s].detector == Detector::Invariants => {
                Some(s)
            }
            _ => None,
        }
    }

    fn run_name(&self, arm: Arm, version: usize, test: usize) -> RunName<'_> {
        let s = self.study;
        RunName {
            arm: arm.dir_name(s),
            version: &s.versions[version].name,
            test: &s.tests[test].name,
        }
    }

    /// Runs a test (or reuses its finished result).
    pub(crate) fn run(&self, arm: Arm, version: usize, test: usize) -> anyhow::Result<()> {
        let started = Instant::now();
        let key = self.run_key(arm, version, test)?;
        if matches!(arm, Arm::Report(_)) {
            return self.run_in_dir(arm, version, test, &key);
        }
        let name = self.run_name(arm, version, test);
        let id = name.id();
        if self.store.is_fresh(id, &key)? {
            Counters::count(&self.counters.runs_reused);
            return Ok(());
        }
        let dirs = self.scratch.for_run()?;
        let prepared = Instant::now();
        let run = self.perform(arm, version, test, &dirs.cwd, &dirs.out)?;
        let executed = Instant::now();
        let kept = self.keep(arm, (version, test), &run.record, &dirs.out)?;
        dirs.clean_out()?;
        let micros = |from: Instant, to: Instant| to.duration_since(from).as_micros() as u64;
        let finished = Finished {
            key: &key,
            record: &run.record,
            stdout: &run.stdout,
            stderr: &run.stderr,
            kept,
            timings: Timings {
                prepare_us: micros(started, prepared),
                exec_us: micros(prepared, executed),
                keep_us: micros(executed, Instant::now()),
            },
        };
        self.store.put(id, &finished)?;
        Counters::count(&self.counters.ran);
        Ok(())
    }

    /// A report stage's run, kept in a directory of its own.
    fn run_in_dir(&self, arm: Arm, version: usize, test: usize, key: &str) -> anyhow::Result<()> {
        let dir = self.run_dir(arm, version, test);
        if is_fresh(&dir, key) {
            Counters::count(&self.counters.runs_reused);
            return Ok(());
        }
        recreate(&dir)?;
        let cwd = dir.join("cwd");
        std::fs::create_dir_all(&cwd)?;
        let run = self.perform(arm, version, test, &cwd, &dir.join("out"))?;
        run.save_texts(&dir)?;
        std::fs::write(
            dir.join("result.json"),
            serde_json::to_string_pretty(&run.record)?,
        )?;
        mark_fresh(&dir, key)?;
        Counters::count(&self.counters.ran);
        Ok(())
    }

    /// Executes the test in `cwd` (existing and empty), its records going
    /// to `out` (created by the runtime only when a monitored unit loads:
    /// inode creation is much of a trivial run's cost).
    fn perform(
        &self,
        arm: Arm,
        version: usize,
        test: usize,
        cwd: &Path,
        out: &Path,
    ) -> anyhow::Result<Execution> {
        let s = self.study;
        let t = &s.tests[test];
        for input in &t.inputs {
            copy_into(&s.inputs.join(input), &cwd.join(input))?;
        }
        let mut env = s.env.clone();
        env.insert("WEFT_OUT".into(), out.display().to_string());
        env.insert(
            "WEFT_BUILD".into(),
            self.tree_dir(arm, version).display().to_string(),
        );
        let stdin = t.stdin.as_ref().map(|p| s.inputs.join(p));
        execute(
            &t.cmd,
            cwd,
            &env,
            stdin.as_deref(),
            &t.outputs,
            s.timeout,
            s.output_cap,
        )
    }

    /// What the detector of the run's strategy needs of its records: the
    /// range set; the original's trace files; what a faulty version's
    /// traces violate and how they compare with the original's, found now. A run that crashed, hung or overflowed
    /// is judged without them (they may be cut short).
    fn keep(
        &self,
        arm: Arm,
        (version, test): (usize, usize),
        record: &RunRecord,
        out: &Path,
    ) -> anyhow::Result<Kept> {
        let Arm::Monitor(s) = arm else {
            return Ok(Kept::default());
        };
        if record.abnormal.is_some() {
            return Ok(Kept::default());
        }
        Ok(match self.study.strategies[s].detector {
            Detector::Ranges => {
                let mut set = run_ranges(out)?;
                set.runs.clear();
                let (layout, values) = encode_ranges(&set)?;
                Kept {
                    layout: Some(layout),
                    records: Some(values),
                }
            }
            Detector::Invariants => match self.checked_arm(arm, version) {
                Some(arm) => {
                    // One reading of the traces, checked and compared.
                    let traces = read_trace_files(out)?;
                    let mut findings = self.learned(arm)?.sets.check(&traces, version, test)?;
                    findings.reach = self.original(arm)?.compare(&traces, test);
                    let (layout, records) = findings.encode()?;
                    Kept {
                        layout: Some(layout),
                        records: Some(records),
                    }
                }
                None => Kept {
                    layout: None,
                    records: pack_traces(out)?,
                },
            },
        })
    }

    /// The finished result of a run and what its monitor saw in it;
    /// fails when the run is missing or stale, or left a broken record.
    /// The original's traces stay packed (as stored) until checked.
    pub fn load_run(
        &self,
        arm: Arm,
        version: usize,
        test: usize,
    ) -> anyhow::Result<(RunRecord, Observation)> {
        let key = self.run_key(arm, version, test)?;
        let traced = match arm {
            Arm::Monitor(s) => self.study.strategies[s].detector == Detector::Invariants,
            _ => false,
        };
        let checked = self.checked_arm(arm, version).is_some();
        if matches!(arm, Arm::Report(_)) {
            return self.load_run_dir(arm, version, test, &key);
        }
        let name = self.run_name(arm, version, test);
        let (record, kept) = match self.store.get(name.id(), &key)? {
            Stored::Fresh(record, kept) => (record, kept),
            Stored::Missing => bail!("run {name} is missing"),
            Stored::Stale => bail!("run {name} is stale (its build, test or inputs changed since)"),
        };
        let observation = match (record.abnormal, kept) {
            (Some(_), _) => Observation::Abnormal,
            (None, kept) if checked => Observation::Checked(Arc::new(
                Findings::decode(
                    &kept.layout.unwrap_or_default(),
                    &kept.records.unwrap_or_default(),
                )
                .with_context(|| format!("run {name}"))?,
            )),
            (None, kept) if traced => Observation::Trace(kept.records.unwrap_or_default().into()),
            (
                None,
                Kept {
                    layout: Some(layout),
                    records: Some(values),
                },
            ) => Observation::Ranges(
                decode_ranges(&layout, &values, &name.to_string()).with_context(|| format!("run {name}"))?,
            ),
            (None, _) => Observation::Ranges(RangeSet::default()),
        };
        Ok((record, observation))
    }

    /// A report stage's run (never traced: report aspects record ranges).
    fn load_run_dir(
        &self,
        arm: Arm,
        version: usize,
        test: usize,
        key: &str,
    ) -> anyhow::Result<(RunRecord, Observation)> {
        let dir = self.run_dir(arm, version, test);
        if !is_fresh(&dir, key) {
            bail!("run {} is missing or stale", dir.display());
        }
        let text = std::fs::read_to_string(dir.join("result.json"))?;
        let record: RunRecord = serde_json::from_str(&text)
            .with_context(|| format!("bad result {}", dir.join("result.json").display()))?;
        let observation = match record.abnormal {
            Some(_) => Observation::Abnormal,
            None => Observation::Ranges(run_ranges(&dir.join("out"))?),
        };
        Ok((record, observation))
    }
}

/// A run's names, as the study database keys it.
struct RunName<'a> {
    arm: String,
    version: &'a str,
    test: &'a str,
}

impl RunName<'_> {
    fn id(&self) -> RunId<'_> {
        RunId {
            arm: &self.arm,
            version: self.version,
            test: self.test,
        }
    }
}

impl std::fmt::Display for RunName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}", self.arm, self.version, self.test)
    }
}

/// Every range a run's records hold; a run that left no record (an
/// unmonitored build, or a monitored one that reached no woven unit)
/// has none.
fn run_ranges(out: &Path) -> anyhow::Result<RangeSet> {
    if !out.exists() {
        return Ok(RangeSet::default());
    }
    match load::read_path(out) {
        Ok(set) => Ok(set),
        Err(RangesError::Empty { .. }) => Ok(RangeSet::default()),
        Err(e) => Err(e.into()),
    }
}
