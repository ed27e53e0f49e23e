//! Executing one step: building a (version, arm) in a scratch copy,
//! running one test against a build, or making a report file (see
//! [`super::report_stage`]). Each step is skipped when its key (the hash of
//! everything it depends on) matches the finished one.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use anyhow::Context;

use super::cache::{Counters, KeyHasher, is_fresh, mark_fresh};
use super::fsops::{append_lines, copy_into, logged, recreate, shell};
use super::jobs::{Arm, Job};
use super::learned_sets::Learning;
use super::store::Store;
use super::study::{StrategyKind, Study};
use super::trace_reach::Original;
use weft_lang::Limits;
use weft_loops::SolverAnalysis;
use weft_run::{Scratch, hash_bytes, quote};
use weft_weave::output::{check_claim, mark};
use weft_weave::{Services, weave_tree};

/// Seconds each solver query of an in-process weave may take (`weft
/// weave`'s default).
const SOLVER_TIMEOUT: Duration = Duration::from_secs(10);

/// Shared state of one study execution.
pub struct Ctx<'a> {
    pub study: &'a Study,
    pub counters: Counters,
    /// The weft executable the caller names (`$WEFT` of report commands;
    /// built-in report making depends on its hash).
    pub weft: PathBuf,
    /// The weft whose code weaves: the study's `weaver`, or the weft
    /// executable (whose code weaves in process). Build keys hash it.
    weaver: PathBuf,
    source_hash: OnceLock<String>,
    weft_hash: OnceLock<String>,
    weaver_hash: OnceLock<String>,
    /// Content hashes of the tests' input files, computed once: many tests
    /// share the same inputs, and runs are the study's bulk.
    input_hashes: Mutex<HashMap<PathBuf, String>>,
    /// Finished runs of the plain and monitored builds.
    pub store: Store,
    /// The runs' reused directories.
    pub scratch: Scratch,
    /// Per invariant arm, what its strategies learned (see
    /// [`Ctx::learned`]).
    pub(crate) learned: Mutex<HashMap<usize, Arc<Learning>>>,
    /// Per invariant arm, what its original's runs show (see
    /// [`Ctx::original`]).
    pub(crate) originals: Mutex<HashMap<usize, Arc<Original>>>,
    /// Per invariant arm, [`Ctx::checked_key`].
    pub(crate) checked_keys: Mutex<HashMap<usize, String>>,
}

/// The study database's file in the work directory.
pub const DATABASE: &str = "study.sqlite";
/// The directory of `--step` processes' shards in the work directory.
pub const SHARDS: &str = "shards";

/// Checks that the study's work directory, whose build and run
/// directories are cleared and rewritten, holds none of the study's inputs
/// and nothing that weft did not write, then creates and marks it.
fn claim_work_dir(study: &Study) -> anyhow::Result<()> {
    let mut inputs = vec![study.file.clone(), study.source.clone(), study.inputs.clone()];
    inputs.extend(study.patch.clone());
    let dir = &study.work_dir;
    check_claim(dir, &inputs, "work directory")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    mark(dir).with_context(|| format!("cannot write into {}", dir.display()))
}

impl<'a> Ctx<'a> {
    /// The context of a whole execution or collection: runs go to the
    /// study database, into which the shards of `--step` processes are
    /// merged first. `weft` is the weft executable: a library cannot tell
    /// which program hosts it, so the caller says.
    pub fn new(study: &'a Study, weft: &Path) -> anyhow::Result<Ctx<'a>> {
        claim_work_dir(study)?;
        let store = Store::open(&study.work_dir.join(DATABASE))?;
        store.merge_shards(&study.work_dir.join(SHARDS))?;
        Ctx::with_store(study, store, weft)
    }

    /// The context of one `--step` process: its runs go to a shard of
    /// their own, named after the step.
    pub fn for_step(study: &'a Study, step: &str, weft: &Path) -> anyhow::Result<Ctx<'a>> {
        claim_work_dir(study)?;
        let name: String = step
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let shard = format!("{name}-{}.sqlite", &hash_bytes(step.as_bytes())[..8]);
        let store = Store::open_shard(
            &study.work_dir.join(SHARDS).join(shard),
            &study.work_dir.join(DATABASE),
        )?;
        Ctx::with_store(study, store, weft)
    }

    fn with_store(study: &'a Study, store: Store, weft: &Path) -> anyhow::Result<Ctx<'a>> {
        let weft = weft.to_path_buf();
        Ok(Ctx {
            scratch: Scratch::new(&study.work_dir, "weft experiment")?,
            store,
            study,
            counters: Counters::default(),
            weaver: study.weaver.clone().unwrap_or_else(|| weft.clone()),
            weft,
            source_hash: OnceLock::new(),
            weft_hash: OnceLock::new(),
            weaver_hash: OnceLock::new(),
            input_hashes: Mutex::new(HashMap::new()),
            learned: Mutex::new(HashMap::new()),
            originals: Mutex::new(HashMap::new()),
            checked_keys: Mutex::new(HashMap::new()),
        })
    }

    pub fn build_dir(&self, arm: Arm, version: usize) -> PathBuf {
        self.study
            .work_dir
            .join("builds")
            .join(arm.dir_name(self.study))
            .join(&self.study.versions[version].name)
    }

    /// The tree that is built and that tests see as `$WEFT_BUILD`: the
    /// copied sources, or for a woven arm the weaver's output.
    pub fn tree_dir(&self, arm: Arm, version: usize) -> PathBuf {
        let dir = self.build_dir(arm, version);
        if self.weaves(arm) {
            dir.join("woven").join("tree")
        } else {
            dir.join("tree")
        }
    }

    /// Performs one step (or reuses its finished result).
    pub fn execute(&self, job: Job) -> anyhow::Result<()> {
        match job {
            Job::Build { arm, version } => self.build(arm, version),
            Job::Run { arm, version, test } => self.run(arm, version, test),
            Job::Report(r) => self.make_report(r),
            Job::Learn => self.learn_all(),
        }
        .with_context(|| format!("step {}", job.id(self.study)))
    }

    fn hashed_once(&self, cell: &OnceLock<String>, path: &Path) -> anyhow::Result<String> {
        if let Some(h) = cell.get() {
            return Ok(h.clone());
        }
        let h = KeyHasher::new("tree").path(path)?.finish();
        Ok(cell.get_or_init(|| h).clone())
    }

    /// The content hash of an input file or tree, computed once.
    pub(crate) fn input_hash(&self, path: &Path) -> anyhow::Result<String> {
        let cached = |m: &Mutex<HashMap<PathBuf, String>>| {
            m.lock().unwrap_or_else(|e| e.into_inner()).get(path).cloned()
        };
        if let Some(h) = cached(&self.input_hashes) {
            return Ok(h);
        }
        let h = KeyHasher::new("input").path(path)?.finish();
        self.input_hashes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_path_buf(), h.clone());
        Ok(h)
    }

    /// The hash of the weft executable (built-in report making depends on it).
    pub fn weft_hash(&self) -> anyhow::Result<String> {
        self.hashed_once(&self.weft_hash, &self.weft)
    }

    fn weaver_hash(&self) -> anyhow::Result<String> {
        self.hashed_once(&self.weaver_hash, &self.weaver)
    }

    pub(crate) fn weaves(&self, arm: Arm) -> bool {
        match arm {
            Arm::Plain => false,
            Arm::Report(_) => true,
            Arm::Monitor(s) => matches!(self.study.strategies[s].kind, StrategyKind::Weave { .. }),
        }
    }

    fn build_key(&self, arm: Arm, version: usize) -> anyhow::Result<String> {
        let s = self.study;
        let v = &s.versions[version];
        let mut h = KeyHasher::new("build");
        h.str(&self.hashed_once(&self.source_hash, &s.source)?);
        h.str(&format!("{:?}", (&s.build, &s.cflags, &s.env, &v.cflags)));
        if let Some(own) = &v.source {
            h.str(&self.input_hash(own)?);
        }
        for patch in s.patch.iter().chain(&v.patch) {
            h.path(patch)?;
        }
        match arm {
            Arm::Plain => {}
            Arm::Report(r) => {
                let report = &s.reports[r];
                h.str("report").str(&self.weaver_hash()?);
                h.path(&report.aspect)?.str(&format!("{:?}", report.args));
            }
            Arm::Monitor(i) => {
                let st = &s.strategies[i];
                h.str(&format!("{:?}", (&st.cflags, &st.ldflags, &st.libs)));
                for f in &st.extra_files {
                    h.path(f)?;
                }
                match &st.kind {
                    StrategyKind::Patch { patch } => {
                        h.path(patch)?;
                    }
                    StrategyKind::Weave {
                        aspect,
                        args,
                        reports,
                    } => {
                        h.str(&self.weaver_hash()?);
                        h.path(aspect)?.str(&format!("{args:?}"));
                        for (arg, r) in reports {
                            h.str(arg).path(&self.report_file(*r))?;
                        }
                    }
                }
            }
        }
        Ok(h.finish())
    }

    /// Indices of the training tests.
    pub fn training_tests(&self) -> Vec<usize> {
        (0..self.study.tests.len())
            .filter(|&t| self.study.training.contains(&self.study.tests[t].name))
            .collect()
    }

    fn build(&self, arm: Arm, version: usize) -> anyhow::Result<()> {
        let key = self.build_key(arm, version)?;
        let dir = self.build_dir(arm, version);
        if is_fresh(&dir, &key) {
            Counters::count(&self.counters.builds_reused);
            return Ok(());
        }
        let s = self.study;
        let v = &s.versions[version];
        recreate(&dir)?;
        let tree = dir.join("tree");
        let log = dir.join("build.log");
        // A version's own sources go over the study's, as `cp -r` would.
        for source in std::iter::once(&s.source).chain(&v.source) {
            let into = if source.is_dir() {
                tree.clone()
            } else {
                tree.join(source.file_name().unwrap_or_default())
            };
            copy_into(source, &into)?;
        }
        for patch in s.patch.iter().chain(&v.patch) {
            apply_patch(patch, &tree, &log)?;
        }
        let mut env = s.env.clone();
        let mut cflags = format!("{} {}", s.cflags, v.cflags);
        match arm {
            Arm::Plain => {}
            Arm::Report(r) => {
                let report = &s.reports[r];
                self.weave(&report.aspect, &report.args, &[], &dir, &log)?;
            }
            Arm::Monitor(i) => {
                let st = &s.strategies[i];
                cflags = format!("{cflags} {}", st.cflags);
                env.insert("LDFLAGS".into(), st.ldflags.clone());
                env.insert("LIBS".into(), st.libs.clone());
                match &st.kind {
                    StrategyKind::Patch { patch } => apply_patch(patch, &tree, &log)?,
                    StrategyKind::Weave {
                        aspect,
                        args,
                        reports,
                    } => {
                        let reports: Vec<(String, PathBuf)> = reports
                            .iter()
                            .map(|(arg, r)| (arg.clone(), self.report_file(*r)))
                            .collect();
                        self.weave(aspect, args, &reports, &dir, &log)?;
                    }
                }
                let built = self.tree_dir(arm, version);
                for f in &st.extra_files {
                    copy_into(f, &built.join(f.file_name().unwrap_or_default()))?;
                }
            }
        }
        env.insert("CFLAGS".into(), cflags.trim().to_string());
        let built = self.tree_dir(arm, version);
        for cmd in &s.build {
            shell(cmd, &built, &env, &log)?;
        }
        mark_fresh(&dir, &key)?;
        Counters::count(&self.counters.built);
        Ok(())
    }

    /// Weaves `aspect` into `DIR/tree`, writing the woven tree to
    /// `DIR/woven/tree`, each report passed as the argument `NAME=PATH`:
    /// in this process ([`weft_weave::weave_tree`]), or by the study's
    /// `weaver`, a weft executable given its documented command line
    /// `weave --aspect ASPECT [--arg NAME=VALUE]... --output woven tree`,
    /// run in `dir`. What the weave says goes to `log`.
    fn weave(
        &self,
        aspect: &Path,
        args: &BTreeMap<String, toml::Value>,
        reports: &[(String, PathBuf)],
        dir: &Path,
        log: &Path,
    ) -> anyhow::Result<()> {
        let args: Vec<(String, String)> = args
            .iter()
            .map(|(name, value)| (name.clone(), arg_text(value)))
            .chain(
                reports
                    .iter()
                    .map(|(name, path)| (name.clone(), path.display().to_string())),
            )
            .collect();
        match &self.study.weaver {
            Some(weaver) => {
                let mut cmd = Command::new(weaver);
                cmd.current_dir(dir).arg("weave").arg("--aspect").arg(aspect);
                for (name, value) in &args {
                    cmd.arg("--arg").arg(format!("{name}={value}"));
                }
                cmd.args(["--output", "woven", "tree"]);
                let what = format!("{cmd:?}");
                logged(&mut cmd, &what, log)
            }
            None => weave_here(aspect, &args, dir, log),
        }
    }
}

/// Weaves in this process, as [`Ctx::weave`] says, with the monitors'
/// script functions and the solver-backed loop analysis `weft weave` has.
fn weave_here(aspect: &Path, args: &[(String, String)], dir: &Path, log: &Path) -> anyhow::Result<()> {
    let mut what = format!("weave --aspect {}", quote(&aspect.display().to_string()));
    for (name, value) in args {
        what.push_str(&format!(" --arg {}", quote(&format!("{name}={value}"))));
    }
    let services = Services {
        apis: weft_monitor::SCRIPT_APIS,
        loops: Some(Arc::new(SolverAnalysis::new(None, SOLVER_TIMEOUT))),
        limits: Limits::default(),
        echo: false,
    };
    let woven = weave_tree(aspect, args, &[dir.join("tree")], &services);
    let mut lines = vec![format!("$ {what} --output woven tree  (in process)")];
    let result = woven.map_err(anyhow::Error::from).and_then(|woven| {
        lines.extend(woven.lines());
        woven.write(&dir.join("woven"))
    });
    if let Err(e) = &result {
        lines.push(format!("{e:#}"));
    }
    append_lines(log, &lines)?;
    result.with_context(|| format!("`{what}` failed; log {}", log.display()))
}

fn apply_patch(patch: &Path, tree: &Path, log: &Path) -> anyhow::Result<()> {
    let cmd = format!("patch -p1 --quiet < {}", quote(&patch.display().to_string()));
    shell(&cmd, tree, &BTreeMap::new(), log)
}

/// An aspect argument's value on the command line: strings as they are,
/// other values as JSON (`1.5`, `true`, `[1,2]`).
fn arg_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => serde_json::to_string(other).unwrap_or_else(|_| other.to_string()),
    }
}
