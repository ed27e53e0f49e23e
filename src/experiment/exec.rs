//! Executing one step: building a (version, arm) in a scratch copy, or
//! running one test against a build. Each step is skipped when its key
//! (the hash of everything it depends on) matches the finished one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use anyhow::{Context, bail};

use super::cache::{Counters, KeyHasher, is_fresh, mark_fresh};
use super::jobs::{Arm, Job};
use super::records::{RangeSet, read_run_ranges};
use super::run::{RunRecord, execute};
use super::study::{Strategy, StrategyKind, Study};

/// Shared state of one study execution.
pub struct Ctx<'a> {
    pub study: &'a Study,
    pub counters: Counters,
    /// The weaver (this very executable).
    pub weft: PathBuf,
    source_hash: OnceLock<String>,
    weft_hash: OnceLock<String>,
}

impl<'a> Ctx<'a> {
    pub fn new(study: &'a Study) -> anyhow::Result<Ctx<'a>> {
        Ok(Ctx {
            study,
            counters: Counters::default(),
            weft: std::env::current_exe().context("cannot locate the weft executable")?,
            source_hash: OnceLock::new(),
            weft_hash: OnceLock::new(),
        })
    }

    pub fn build_dir(&self, arm: Arm, version: usize) -> PathBuf {
        self.study
            .work_dir
            .join("builds")
            .join(arm.dir_name(self.study))
            .join(&self.study.versions[version].name)
    }

    pub fn run_dir(&self, arm: Arm, version: usize, test: usize) -> PathBuf {
        self.study
            .work_dir
            .join("runs")
            .join(arm.dir_name(self.study))
            .join(&self.study.versions[version].name)
            .join(&self.study.tests[test].name)
    }

    /// Performs one step (or reuses its finished result).
    pub fn execute(&self, job: Job) -> anyhow::Result<()> {
        match job {
            Job::Build { arm, version } => self.build(arm, version),
            Job::Run { arm, version, test } => self.run(arm, version, test),
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

    fn strategy(&self, arm: Arm) -> Option<(&Strategy, bool)> {
        match arm {
            Arm::Plain => None,
            Arm::Report(s) => Some((&self.study.strategies[s], true)),
            Arm::Monitor(s) => Some((&self.study.strategies[s], false)),
        }
    }

    fn build_key(&self, arm: Arm, version: usize) -> anyhow::Result<String> {
        let s = self.study;
        let v = &s.versions[version];
        let mut h = KeyHasher::new("build");
        h.str(&self.hashed_once(&self.source_hash, &s.source)?);
        h.str(&format!("{:?}", (&s.build, &s.cflags, &s.env, &v.cflags)));
        for patch in s.patch.iter().chain(&v.patch) {
            h.path(patch)?;
        }
        if let Some((st, report)) = self.strategy(arm) {
            h.str(&format!("{:?}", (&st.cflags, &st.ldflags, &st.libs, report)));
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
                    report: stage,
                } => {
                    h.str(&self.hashed_once(&self.weft_hash, &self.weft)?);
                    match (report, stage) {
                        (true, Some(stage)) => {
                            h.path(&stage.aspect)?.str(&format!("{:?}", stage.args));
                        }
                        _ => {
                            h.path(aspect)?.str(&format!("{args:?}"));
                        }
                    }
                    if let (false, Some(_), Arm::Monitor(i)) = (report, stage, arm) {
                        for t in self.training_tests() {
                            h.path(&self.run_dir(Arm::Report(i), 0, t).join("out"))?;
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
        copy_into(&s.source, &tree)?;
        for patch in s.patch.iter().chain(&v.patch) {
            shell(
                &format!("patch -p1 --quiet < '{}'", patch.display()),
                &tree,
                &BTreeMap::new(),
                &log,
            )?;
        }
        let mut env = s.env.clone();
        let mut cflags = format!("{} {}", s.cflags, v.cflags);
        if let Some((st, report)) = self.strategy(arm) {
            cflags = format!("{cflags} {}", st.cflags);
            env.insert("LDFLAGS".into(), st.ldflags.clone());
            env.insert("LIBS".into(), st.libs.clone());
            match &st.kind {
                StrategyKind::Patch { patch } => {
                    shell(
                        &format!("patch -p1 --quiet < '{}'", patch.display()),
                        &tree,
                        &BTreeMap::new(),
                        &log,
                    )?;
                }
                StrategyKind::Weave {
                    aspect,
                    args,
                    report: stage,
                } => {
                    let (aspect, mut args) = match (report, stage) {
                        (true, Some(stage)) => (&stage.aspect, stage.args.clone()),
                        _ => (aspect, args.clone()),
                    };
                    if let (false, Some(stage), Arm::Monitor(i)) = (report, stage, arm) {
                        let reports = self.run_dir(Arm::Report(i), 0, 0);
                        let reports = reports.parent().unwrap_or(&reports);
                        args.insert(
                            stage.report_arg.clone(),
                            toml::Value::String(reports.display().to_string()),
                        );
                    }
                    self.weave(aspect, &args, &tree, &dir.join("woven"), &log)?;
                }
            }
            for f in &st.extra_files {
                copy_into(f, &tree.join(f.file_name().unwrap_or_default()))?;
            }
        }
        env.insert("CFLAGS".into(), cflags.trim().to_string());
        for cmd in &s.build {
            shell(cmd, &tree, &env, &log)?;
        }
        mark_fresh(&dir, &key)?;
        Counters::count(&self.counters.built);
        Ok(())
    }

    /// Weaves `aspect` into `tree` through `weft weave`, writing the woven
    /// files to `woven` and laying them over `tree`.
    fn weave(
        &self,
        aspect: &Path,
        args: &BTreeMap<String, toml::Value>,
        tree: &Path,
        woven: &Path,
        log: &Path,
    ) -> anyhow::Result<()> {
        let args = serde_json::to_string(args)?;
        let cmd = format!(
            "'{}' weave '{}' --args '{}' --out '{}' .",
            self.weft.display(),
            aspect.display(),
            args.replace('\'', "'\\''"),
            woven.display()
        );
        shell(&cmd, tree, &BTreeMap::new(), log)?;
        copy_into(woven, tree)
    }

    fn run_key(&self, arm: Arm, version: usize, test: usize) -> anyhow::Result<String> {
        let s = self.study;
        let build_dir = self.build_dir(arm, version);
        let build_key = std::fs::read_to_string(build_dir.join("key"))
            .with_context(|| format!("{} is not built yet", build_dir.display()))?;
        let t = &s.tests[test];
        let mut h = KeyHasher::new("run");
        h.str(&build_key)
            .str(&format!("{:?}", (t, &s.env, s.timeout, s.output_cap)));
        for input in t.inputs.iter().chain(&t.stdin) {
            h.path(&s.inputs.join(input))?;
        }
        Ok(h.finish())
    }

    fn run(&self, arm: Arm, version: usize, test: usize) -> anyhow::Result<()> {
        let key = self.run_key(arm, version, test)?;
        let dir = self.run_dir(arm, version, test);
        if is_fresh(&dir, &key) {
            Counters::count(&self.counters.runs_reused);
            return Ok(());
        }
        let s = self.study;
        let t = &s.tests[test];
        recreate(&dir)?;
        let cwd = dir.join("cwd");
        let out = dir.join("out");
        std::fs::create_dir_all(&cwd)?;
        std::fs::create_dir_all(&out)?;
        for input in &t.inputs {
            copy_into(&s.inputs.join(input), &cwd.join(input))?;
        }
        let mut env = s.env.clone();
        env.insert("WEFT_OUT".into(), out.display().to_string());
        env.insert(
            "WEFT_BUILD".into(),
            self.build_dir(arm, version).join("tree").display().to_string(),
        );
        let stdin = t.stdin.as_ref().map(|p| s.inputs.join(p));
        let record = execute(
            &t.cmd,
            &cwd,
            &env,
            stdin.as_deref(),
            &t.outputs,
            s.timeout,
            s.output_cap,
        )?;
        std::fs::write(dir.join("result.json"), serde_json::to_string_pretty(&record)?)?;
        mark_fresh(&dir, &key)?;
        Counters::count(&self.counters.ran);
        Ok(())
    }

    /// The finished result of a run, with the ranges it recorded; fails
    /// when the run is missing or stale.
    pub fn load_run(&self, arm: Arm, version: usize, test: usize) -> anyhow::Result<(RunRecord, RangeSet)> {
        let dir = self.run_dir(arm, version, test);
        let key = self.run_key(arm, version, test)?;
        if !is_fresh(&dir, &key) {
            bail!("run {} is missing or stale", dir.display());
        }
        let text = std::fs::read_to_string(dir.join("result.json"))?;
        let record: RunRecord = serde_json::from_str(&text)
            .with_context(|| format!("bad result {}", dir.join("result.json").display()))?;
        let ranges = read_run_ranges(&dir.join("out"))?;
        Ok((record, ranges))
    }
}

fn recreate(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Copies a file or a directory's content to `dst`, keeping timestamps
/// (autotools trees must not look out of date).
fn copy_into(src: &Path, dst: &Path) -> anyhow::Result<()> {
    if let Some(parent) = dst.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let (from, to) = if src.is_dir() {
        std::fs::create_dir_all(dst)?;
        (src.join("."), dst.to_path_buf())
    } else {
        (src.to_path_buf(), dst.to_path_buf())
    };
    let status = Command::new("cp")
        .arg("-a")
        .arg(&from)
        .arg(&to)
        .stdout(Stdio::null())
        .status()
        .context("cannot run cp")?;
    if !status.success() {
        bail!("cannot copy {} to {}", src.display(), dst.display());
    }
    Ok(())
}

/// Runs a build-side shell command, appending its output to `log`.
fn shell(cmd: &str, cwd: &Path, env: &BTreeMap<String, String>, log: &Path) -> anyhow::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(log)?;
    writeln!(file, "$ {cmd}")?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(cwd)
        .envs(env)
        .stdin(Stdio::null())
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .with_context(|| format!("cannot run `{cmd}`"))?;
    if !status.success() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "`{cmd}` failed ({status}); log {}:\n{}",
            log.display(),
            tail.join("\n")
        );
    }
    Ok(())
}
