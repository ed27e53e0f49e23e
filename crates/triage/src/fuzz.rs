//! Distinguishing inputs found with AFL++: for each behaviour class of
//! several revisions, `afl-fuzz` drives a differential harness
//! (`runtime/weft_diff_harness.c`, built with `afl-cc`) that runs every
//! revision of the class on the same input and aborts when two answer
//! differently (exit status or signal, or stdout). Each input afl-fuzz
//! saves as a crash tells revisions of that class apart: it is kept as a
//! new input, and triage runs again with it to split the classes (the
//! command fuzzes again, in rounds, the classes that split).
//!
//! The command's words and `@@` are those of `--inputs`: the input is fed
//! on stdin, or its path replaces `@@`. The seeds are the given inputs.
//! Coverage guides the search only as far as the program is instrumented:
//! build the meta program with `afl-cc` for that (a plain build is fuzzed
//! with the harness's own few edges).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::classes::Class;
use super::inputs::{INPUT_MARK, Input, Source};

/// The harness's C text.
const HARNESS: &str = include_str!("../runtime/weft_diff_harness.c");

/// What fuzzing one class found.
#[derive(Debug, Clone)]
pub struct Campaign {
    /// The class's revisions.
    pub revisions: Vec<u32>,
    /// The distinguishing inputs saved, in the order afl-fuzz found them.
    pub found: Vec<PathBuf>,
    pub time: Duration,
}

/// How to fuzz.
pub struct Fuzz<'a> {
    /// The command's words (with `@@` or reading stdin).
    pub program: &'a [String],
    /// Where the command runs.
    pub start_dir: &'a Path,
    /// Time given to each class.
    pub budget: Duration,
    /// How long one run of one revision may take.
    pub timeout: Duration,
    /// A new directory receiving the distinguishing inputs.
    pub into: &'a Path,
}

impl Fuzz<'_> {
    /// Fuzzes every class of two revisions or more, seeded with `inputs`
    /// (files), and saves what tells its revisions apart in `into` (an
    /// existing directory) as `rR-class-C-N` (R the round, C the class's
    /// place in `classes`, from 1).
    pub fn run(&self, classes: &[Class], inputs: &[Input], round: usize) -> anyhow::Result<Vec<Campaign>> {
        let scratch = tempfile::tempdir().context("cannot create a temporary directory")?;
        let _removed = weft_interrupt::RemovedOnSignal::new(scratch.path().to_path_buf());
        let harness = build_harness(scratch.path())?;
        let seeds = seeds(scratch.path(), inputs)?;
        let mut campaigns = Vec::new();
        for (id, class) in classes.iter().enumerate().filter(|(_, c)| c.revisions.len() > 1) {
            let start = Instant::now();
            let out = scratch.path().join(format!("afl-{}", id + 1));
            self.afl_fuzz(&harness, &seeds, &out, &class.revisions)?;
            let found = self.save(&out, &format!("r{round}-class-{}", id + 1))?;
            campaigns.push(Campaign {
                revisions: class.revisions.clone(),
                found,
                time: start.elapsed(),
            });
        }
        Ok(campaigns)
    }

    /// One afl-fuzz campaign on the harness comparing `revisions`.
    fn afl_fuzz(&self, harness: &Path, seeds: &Path, out: &Path, revisions: &[u32]) -> anyhow::Result<()> {
        let list: Vec<String> = revisions.iter().map(u32::to_string).collect();
        let marked = self.program.iter().any(|w| w.contains(INPUT_MARK));
        let run_ms = self.timeout.as_millis().max(1);
        let status = Command::new("afl-fuzz")
            .args(["-i".as_ref(), seeds.as_os_str(), "-o".as_ref(), out.as_os_str()] as [&std::ffi::OsStr; 4])
            .arg("-V")
            .arg(self.budget.as_secs().max(1).to_string())
            .arg("-t")
            .arg((run_ms * (revisions.len() as u128 + 1) + 100).to_string())
            .arg("--")
            .arg(harness)
            .arg(if marked { "-" } else { INPUT_MARK })
            .arg(run_ms.to_string())
            .arg(list.join(","))
            .args(self.program)
            .current_dir(self.start_dir)
            .envs(AFL_ENV)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .output()
            .context("cannot start afl-fuzz: install AFL++ (Debian package afl++)")?;
        if !status.status.success() {
            let text = String::from_utf8_lossy(&status.stderr);
            let tail: Vec<&str> = text.lines().rev().take(8).collect();
            bail!(
                "afl-fuzz failed ({}):\n{}",
                status.status,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        Ok(())
    }

    /// Copies the crashes of a campaign into `into`, as `PREFIX-N`.
    fn save(&self, out: &Path, prefix: &str) -> anyhow::Result<Vec<PathBuf>> {
        let crashes = out.join("default").join("crashes");
        let mut names: Vec<PathBuf> = match std::fs::read_dir(&crashes) {
            Ok(entries) => entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("id:"))
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        names.sort();
        let mut found = Vec::new();
        for (n, crash) in names.iter().enumerate() {
            let target = self.into.join(format!("{prefix}-{}", n + 1));
            std::fs::copy(crash, &target).with_context(|| format!("cannot write {}", target.display()))?;
            found.push(target);
        }
        Ok(found)
    }
}

/// afl-fuzz without its screen, on a shared machine, with no crash
/// reporter to worry about (triage's crashes are aborts it asks for), and
/// a full-size coverage map: the harness alone has a few edges, and the
/// runs of an instrumented meta program write theirs into the same map.
const AFL_ENV: [(&str, &str); 6] = [
    ("AFL_MAP_SIZE", "65536"),
    ("AFL_NO_UI", "1"),
    ("AFL_NO_AFFINITY", "1"),
    ("AFL_SKIP_CPUFREQ", "1"),
    ("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"),
    ("AFL_FAST_CAL", "1"),
];

/// Writes the harness into `dir` and builds it with afl-cc.
fn build_harness(dir: &Path) -> anyhow::Result<PathBuf> {
    let source = dir.join("weft_diff_harness.c");
    let exe = dir.join("weft_diff_harness");
    std::fs::write(&source, HARNESS).with_context(|| format!("cannot write {}", source.display()))?;
    let built = Command::new("afl-cc")
        .args(["-O1".as_ref(), "-o".as_ref(), exe.as_os_str(), source.as_os_str()] as [&std::ffi::OsStr; 4])
        .env("AFL_QUIET", "1")
        .output()
        .context("cannot start afl-cc: install AFL++ (Debian package afl++)")?;
    if !built.status.success() {
        bail!(
            "afl-cc could not build the harness:\n{}",
            String::from_utf8_lossy(&built.stderr)
        );
    }
    Ok(exe)
}

/// The seed directory: the inputs' files (afl-fuzz wants at least one
/// non-empty file).
fn seeds(dir: &Path, inputs: &[Input]) -> anyhow::Result<PathBuf> {
    let seeds = dir.join("seeds");
    std::fs::create_dir(&seeds)?;
    for (n, input) in inputs.iter().enumerate() {
        let Source::File(file) = &input.source else {
            bail!("--fuzz needs --inputs: test commands cannot be fuzzed");
        };
        let text = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        if !text.is_empty() {
            std::fs::write(seeds.join(format!("seed-{n}")), text)?;
        }
    }
    if std::fs::read_dir(&seeds)?.next().is_none() {
        std::fs::write(seeds.join("seed"), "\n")?;
    }
    Ok(seeds)
}
