//! Distinguishing inputs found with AFL++: for each behaviour class of
//! several revisions, `afl-fuzz` drives a differential harness
//! (`runtime/weft_diff_harness.c`, built with `afl-cc`) that runs every
//! revision of the class on the same input and aborts when two answer
//! differently (exit status or signal, or stdout). Each input afl-fuzz
//! saves as a crash tells revisions of that class apart: it is kept as a
//! new input, and triage runs again with it to split the classes (the
//! command fuzzes again, in rounds, the classes that split).
//!
//! With `--inputs`, the command's words and `@@` are those of the triage:
//! the input is fed on stdin, or its path replaces `@@`, and the seeds are
//! the given inputs. With `--tests`, the tests ending with `< FILE`
//! ([`StdinTest`]) keep their arguments and afl-fuzz varies their stdin:
//! one harness per argument vector, for up to [`ARGUMENT_VECTORS`] tests
//! spread over the file, seeded with the stdin files of the tests sharing
//! that vector; an input found is saved as a file and becomes the test
//! feeding it on stdin, also appended to `DIR/tests` for `--tests`.
//! Coverage guides the search only as far as the program is instrumented:
//! build the meta program with `afl-cc` for that (a plain build is fuzzed
//! with the harness's own few edges).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::classes::Class;
use super::inputs::{INPUT_MARK, Input, Source};
use super::stdin_test::StdinTest;

/// How many argument vectors of a test file a class is fuzzed with; its
/// time is shared among them.
pub const ARGUMENT_VECTORS: usize = 3;

/// Where the triage's tests found by fuzzing are listed, in `--fuzz-into`.
pub const FOUND_TESTS: &str = "tests";

/// The harness's C text.
const HARNESS: &str = include_str!("../runtime/weft_diff_harness.c");

/// What fuzzing one class found.
#[derive(Debug, Clone)]
pub struct Campaign {
    /// The class's revisions.
    pub revisions: Vec<u32>,
    /// The distinguishing inputs saved, in the order afl-fuzz found them.
    pub found: Vec<Input>,
    pub time: Duration,
}

/// How to fuzz.
pub struct Fuzz<'a> {
    /// The command's words (with `@@` or reading stdin); empty with tests.
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
    /// Fuzzes every class of two revisions or more, seeded from `inputs`
    /// (all files, or all tests), and saves what tells its revisions apart
    /// in `into` (an existing directory) as `rR-class-C-N` (R the round, C
    /// the class's place in `classes`, from 1).
    pub fn run(&self, classes: &[Class], inputs: &[Input], round: usize) -> anyhow::Result<Vec<Campaign>> {
        let scratch = tempfile::tempdir().context("cannot create a temporary directory")?;
        let _removed = weft_interrupt::RemovedOnSignal::new(scratch.path().to_path_buf());
        let harness = build_harness(scratch.path())?;
        let targets = self.targets(inputs)?;
        let mut seeds = Vec::new();
        for (n, target) in targets.iter().enumerate() {
            seeds.push(write_seeds(
                &scratch.path().join(format!("seeds-{n}")),
                &target.seeds,
            )?);
        }
        let share = (self.budget.as_secs() / targets.len() as u64).max(1);
        let mut campaigns = Vec::new();
        for (id, class) in classes.iter().enumerate().filter(|(_, c)| c.revisions.len() > 1) {
            let start = Instant::now();
            let prefix = format!("r{round}-class-{}", id + 1);
            let mut found = Vec::new();
            for (n, (target, seeds)) in targets.iter().zip(&seeds).enumerate() {
                let out = scratch.path().join(format!("afl-{}-{n}", id + 1));
                self.afl_fuzz(&harness, target, seeds, &out, &class.revisions, share)?;
                found.extend(self.save(&out, target, &prefix, found.len())?);
            }
            campaigns.push(Campaign {
                revisions: class.revisions.clone(),
                found,
                time: start.elapsed(),
            });
        }
        Ok(campaigns)
    }

    /// What afl-fuzz runs: the command on input files, or the argument
    /// vectors of a few tests ending with `< FILE`.
    fn targets(&self, inputs: &[Input]) -> anyhow::Result<Vec<Target>> {
        if inputs.iter().all(|i| matches!(i.source, Source::File(_))) {
            let seeds = inputs
                .iter()
                .filter_map(|i| match &i.source {
                    Source::File(f) => Some(f.clone()),
                    Source::Test(_) => None,
                })
                .collect();
            let marked = self.program.iter().any(|w| w.contains(INPUT_MARK));
            return Ok(vec![Target {
                command: self.program.to_vec(),
                stdin: !marked,
                seeds,
                test: None,
            }]);
        }
        let tests = stdin_tests(inputs, self.start_dir);
        let vectors = argument_vectors(&tests);
        if vectors.is_empty() {
            bail!("--fuzz with --tests needs tests ending with `< FILE` (their stdin is what varies)");
        }
        Ok(vectors
            .into_iter()
            .map(|test| Target {
                command: vec!["sh".into(), "-c".into(), test.command.clone()],
                stdin: true,
                seeds: tests
                    .iter()
                    .filter(|t| t.command == test.command)
                    .map(|t| t.stdin.clone())
                    .collect(),
                test: Some(test),
            })
            .collect())
    }

    /// One afl-fuzz campaign on the harness comparing `revisions`.
    fn afl_fuzz(
        &self,
        harness: &Path,
        target: &Target,
        seeds: &Path,
        out: &Path,
        revisions: &[u32],
        seconds: u64,
    ) -> anyhow::Result<()> {
        let list: Vec<String> = revisions.iter().map(u32::to_string).collect();
        let run_ms = self.timeout.as_millis().max(1);
        let status = Command::new("afl-fuzz")
            .args(["-i".as_ref(), seeds.as_os_str(), "-o".as_ref(), out.as_os_str()] as [&std::ffi::OsStr; 4])
            .arg("-V")
            .arg(seconds.to_string())
            .arg("-t")
            .arg((run_ms * (revisions.len() as u128 + 1) + 100).to_string())
            .arg("--")
            .arg(harness)
            .arg(if target.stdin { INPUT_MARK } else { "-" })
            .arg(run_ms.to_string())
            .arg(list.join(","))
            .args(&target.command)
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

    /// Copies the crashes of a campaign into `into`, as `PREFIX-N` (N from
    /// `before + 1`), and makes each an input of `target`'s form.
    fn save(&self, out: &Path, target: &Target, prefix: &str, before: usize) -> anyhow::Result<Vec<Input>> {
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
            let file = self.into.join(format!("{prefix}-{}", before + n + 1));
            std::fs::copy(crash, &file).with_context(|| format!("cannot write {}", file.display()))?;
            found.push(match &target.test {
                None => super::inputs::from_file(file),
                Some(test) => self.found_test(test, &file)?,
            });
        }
        Ok(found)
    }

    /// The test feeding `file` on stdin with `test`'s arguments, appended
    /// to `into/tests`.
    fn found_test(&self, test: &StdinTest, file: &Path) -> anyhow::Result<Input> {
        use std::io::Write;
        // Absolute: the test may change directory before reading it.
        let line = test.with_stdin(&std::path::absolute(file)?);
        let list = self.into.join(FOUND_TESTS);
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&list)
            .and_then(|mut f| writeln!(f, "{line}"))
            .with_context(|| format!("cannot write {}", list.display()))?;
        Ok(Input {
            name: file
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            source: Source::Test(line),
        })
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

/// A command afl-fuzz's input is fed to.
struct Target {
    /// The words the harness runs.
    command: Vec<String>,
    /// The input goes on stdin (else its path replaces `@@`).
    stdin: bool,
    /// The files whose bytes start the search.
    seeds: Vec<PathBuf>,
    /// The test whose arguments are kept, for inputs found from tests.
    test: Option<StdinTest>,
}

/// The tests of `inputs` ending with `< FILE`.
fn stdin_tests(inputs: &[Input], start_dir: &Path) -> Vec<StdinTest> {
    inputs
        .iter()
        .filter_map(|i| match &i.source {
            Source::Test(line) => StdinTest::parse(line, start_dir),
            Source::File(_) => None,
        })
        .collect()
}

/// Up to [`ARGUMENT_VECTORS`] tests with distinct arguments, spread evenly
/// over `tests` (in their order): the first, and others further on.
fn argument_vectors(tests: &[StdinTest]) -> Vec<StdinTest> {
    let mut distinct: Vec<&StdinTest> = Vec::new();
    for t in tests {
        if !distinct.iter().any(|d| d.command == t.command) {
            distinct.push(t);
        }
    }
    let k = distinct.len().min(ARGUMENT_VECTORS);
    (0..k).map(|i| distinct[i * distinct.len() / k].clone()).collect()
}

/// The seed directory `dir`: the files' bytes (afl-fuzz wants at least
/// one non-empty file).
fn write_seeds(dir: &Path, files: &[PathBuf]) -> anyhow::Result<PathBuf> {
    std::fs::create_dir(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (n, file) in files.iter().enumerate() {
        let text = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        if !text.is_empty() {
            std::fs::write(dir.join(format!("seed-{n}")), text)?;
        }
    }
    if std::fs::read_dir(dir)?.next().is_none() {
        std::fs::write(dir.join("seed"), "\n")?;
    }
    Ok(dir.to_path_buf())
}
