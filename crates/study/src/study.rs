//! The study file: which program versions, strategies and tests make up a
//! fault-detection study, and how to build and run them.
//!
//! Paths in the file are relative to the directory holding it. Every error
//! names the file and the key at fault.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Deserialize;
use weft_invariants::KindSet;
use weft_monitor::trace::UnseenPoints;

use super::evaluate::Judging;

/// The report's training percentages (§4.1).
pub const REPORT_PERCENTAGES: [u32; 11] = [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/// A validated study, with every path made absolute.
#[derive(Debug, Clone)]
pub struct Study {
    /// The study file itself.
    pub file: PathBuf,
    pub name: String,
    /// Pristine program sources (a directory, or a one-file program),
    /// copied for each build.
    pub source: PathBuf,
    /// Patch applied (with `patch -p1`) to every copy, e.g. the fault guards.
    pub patch: Option<PathBuf>,
    /// Shell commands building the program in its copy.
    pub build: Vec<String>,
    /// CFLAGS shared by every build; versions and strategies append theirs.
    pub cflags: String,
    /// Extra environment for builds and runs.
    pub env: BTreeMap<String, String>,
    /// Run once, in the study's directory, before anything else.
    pub prepare: Option<String>,
    /// Directory the tests' `inputs` are taken from.
    pub inputs: PathBuf,
    /// The weft executable that weaves (default: the running one).
    pub weaver: Option<PathBuf>,
    /// Scratch and cache directory (shared between machines for --plan).
    pub work_dir: PathBuf,
    /// Where the tables, plots and reports go.
    pub out_dir: PathBuf,
    pub seed: u64,
    /// Random draws of the training runs per percentage.
    pub draws: u32,
    pub percentages: Vec<u32>,
    /// Alarms on the original's unseen runs a detector may raise, in
    /// percent, for the versions it detects to count (the headline).
    pub alarm_budget: f64,
    /// Which learned sets judge the faulty versions' runs.
    pub judging: Judging,
    pub timeout: Duration,
    /// Bytes a run may write to stdout, stderr or any named output.
    pub output_cap: u64,
    /// Whether the oracle also compares standard error.
    pub compare_stderr: bool,
    /// The reference version is `versions[0]`.
    pub versions: Vec<Version>,
    /// Reports the strategies' aspects read, each made once per study.
    pub reports: Vec<Report>,
    pub strategies: Vec<Strategy>,
    pub tests: Vec<TestCase>,
    /// Names of the tests whose runs of the original train the ranges.
    pub training: BTreeSet<String>,
}

/// One program version: the original, or a faulty variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    pub name: String,
    pub cflags: String,
    /// Patch applied after the study's own.
    pub patch: Option<PathBuf>,
    /// The version's own sources (a directory, or one file), copied over a
    /// copy of the study's: faulty versions shipped as whole files.
    pub source: Option<PathBuf>,
}

/// How a strategy's instrumented tree is obtained.
#[derive(Debug, Clone, PartialEq)]
pub enum StrategyKind {
    /// Apply a patch that instruments the sources by hand (no weaving).
    Patch { patch: PathBuf },
    /// Run `weft weave` with an aspect and its arguments.
    Weave {
        aspect: PathBuf,
        /// Passed as `--arg NAME=VALUE` (strings as they are, other values
        /// in their TOML/JSON spelling).
        args: BTreeMap<String, toml::Value>,
        /// `(argument, report index)`: the aspect gets the path of each
        /// report's file as `--arg ARGUMENT=PATH`.
        reports: Vec<(String, usize)>,
    },
}

/// A report stage: an aspect woven into the original, whose training runs'
/// records are turned into one report file that strategies' aspects read
/// (e.g. the frequency report of FREQ, the fan-in report of FANIN).
///
/// Reports are declared once per study and referenced by name, so that
/// FREQ, COMBAND and COMBOR share one frequency report instead of building
/// and running it three times.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub name: String,
    pub aspect: PathBuf,
    pub args: BTreeMap<String, toml::Value>,
    /// Shell command writing `$WEFT_REPORT` from the runs under `$WEFT_RUNS`
    /// (or from what the weave wrote: the woven tree `$WEFT_TREE`, files in
    /// `$WEFT_WEAVE_DIR`); `None`: the union of the training runs' ranges as
    /// a range set (what `weft ranges merge` writes).
    pub make: Option<String>,
}

/// What a strategy's runs record, and so how a run is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detector {
    /// Range records: a run fails when a value leaves its learned range.
    Ranges,
    /// Traces: a run fails when it violates a learned likely invariant.
    Invariants,
}

/// A monitoring strategy.
#[derive(Debug, Clone, PartialEq)]
pub struct Strategy {
    pub name: String,
    pub kind: StrategyKind,
    pub detector: Detector,
    /// Invariants only: what one half of the training runs, checked
    /// against what the other half learned, decides (see
    /// `detect_invariants`).
    pub holdout: Holdout,
    /// Invariants only: Daikon's confidence limit (`--conf_limit`): an
    /// invariant is kept when the probability that it held by chance over
    /// its samples is below 1 - confidence (0.99 by default).
    pub confidence: f64,
    /// Invariants only: the kinds of invariant never learned
    /// (`kinds_off`; default: those Daikon leaves out, `Modulus`,
    /// `NonModulus` and `Even`).
    pub kinds_off: KindSet,
    /// Invariants only: which points a run reaches and no training run
    /// did count as findings (`unseen_points`: "off", "inner", "all").
    pub unseen_points: UnseenPoints,
    /// Appended to CFLAGS (e.g. the runtime's include path).
    pub cflags: String,
    /// Exported as LDFLAGS and LIBS (e.g. the runtime library).
    pub ldflags: String,
    pub libs: String,
    /// Files copied into the tree root before building (e.g. a runtime .c).
    pub extra_files: Vec<PathBuf>,
}

/// One test of the suite.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    pub name: String,
    /// Shell command line, run with `sh -c` in a fresh directory.
    pub cmd: String,
    /// Files or directories (relative to `inputs`) copied into that directory.
    pub inputs: Vec<String>,
    /// File (relative to `inputs`) fed on standard input.
    pub stdin: Option<String>,
    /// Files the test writes, compared by the oracle.
    pub outputs: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    study: RawStudy,
    #[serde(default)]
    version: Vec<RawVersion>,
    #[serde(default)]
    report: Vec<RawReport>,
    #[serde(default)]
    strategy: Vec<RawStrategy>,
    #[serde(default)]
    test: Vec<RawTest>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStudy {
    name: String,
    source: PathBuf,
    patch: Option<PathBuf>,
    build: Vec<String>,
    #[serde(default)]
    cflags: String,
    #[serde(default)]
    env: BTreeMap<String, String>,
    prepare: Option<String>,
    #[serde(default = "default_inputs")]
    inputs: PathBuf,
    weaver: Option<PathBuf>,
    #[serde(default = "default_work_dir")]
    work_dir: PathBuf,
    #[serde(default = "default_out_dir")]
    out_dir: PathBuf,
    #[serde(default)]
    seed: u64,
    #[serde(default = "default_draws")]
    draws: u32,
    percentages: Option<Vec<u32>>,
    #[serde(default = "default_alarm_budget")]
    alarm_budget: f64,
    #[serde(default)]
    judging: Judging,
    #[serde(default = "default_timeout")]
    timeout_secs: f64,
    #[serde(default = "default_cap")]
    output_cap_bytes: u64,
    #[serde(default)]
    compare_stderr: bool,
    /// Extra `[[test]]` tables, from another TOML file.
    suite: Option<PathBuf>,
    /// Tests given as argument lists, one per line of a file.
    test_lines: Option<RawTestLines>,
    /// Test names or globs selecting the training tests (default: all).
    training: Option<Vec<String>>,
}

fn default_inputs() -> PathBuf {
    PathBuf::from("inputs")
}
fn default_work_dir() -> PathBuf {
    PathBuf::from("work")
}
fn default_out_dir() -> PathBuf {
    PathBuf::from("report")
}
fn default_draws() -> u32 {
    10
}
fn default_alarm_budget() -> f64 {
    1.0
}
fn default_timeout() -> f64 {
    10.0
}
fn default_cap() -> u64 {
    64 << 20
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVersion {
    name: String,
    #[serde(default)]
    cflags: String,
    patch: Option<PathBuf>,
    source: Option<PathBuf>,
}

/// What hold-out does with the findings of one half of a training subset's
/// runs checked against the invariants the other half learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Holdout {
    /// No hold-out: every violated invariant flags a run.
    #[default]
    Off,
    /// `holdout = true` or `"pairs"`: a (program point, kind) pair violated
    /// there never flags a run.
    Pairs,
    /// `holdout = "count"`: a run is flagged when it violates more
    /// (program point, kind) pairs than all but the alarm budget's share of
    /// the training runs did there.
    Count,
    /// `holdout = "halves"`: the count of [`Holdout::Count`], but a test
    /// run is checked against each half's invariants (those the training
    /// counts were taken against), and flagged when it violates more pairs
    /// than the threshold against both; the threshold is the count that
    /// all but the alarm budget's share of the training runs and the test
    /// run itself stay within (the conformal rank).
    Halves,
    /// `holdout = "split"`: two counts of [`Holdout::Count`], one over the
    /// pairs at function entries and exits, one over those at points inside
    /// functions (loop heads, branch outcomes, before calls that do not
    /// return), each with a threshold at half the alarm budget; a run over
    /// either is flagged. The two kinds of point see different faults, and
    /// a fault that breaks a few pairs at inner points is not drowned by
    /// the many pairs unusual correct runs break at entries and exits.
    Split,
    /// `holdout = "score"`: each (program point, kind) pair weighs the log
    /// of how rarely the held-out training runs broke it (`rarity`); a run
    /// is flagged when the weights of the pairs it breaks sum to more than
    /// all but the alarm budget's share of the held-out runs' own scores
    /// (each weighed by the other held-out runs), the test run counted
    /// among them (the conformal rank of [`Holdout::Halves`]).
    Score,
    /// `holdout = "score_invariants"`: [`Holdout::Score`] weighing each
    /// invariant (its point, kind and variables) instead of each pair.
    ScoreInvariants,
    /// `holdout = "score_known"`: [`Holdout::Score`] weighing only the
    /// pairs of invariants a half learned: a pair only the whole subset's
    /// invariants hold, which no held-out run could break, weighs nothing.
    ScoreKnown,
    /// `holdout = "folds"`: the count of [`Holdout::Count`], cross-fitted:
    /// the subset is split in folds, every training run is checked against
    /// the invariants the other folds learned, and a test run (checked
    /// against the whole subset's) is flagged when it violates more pairs
    /// than the conformal rank of all those counts.
    Folds,
    /// `holdout = "folds_score"`: [`Holdout::ScoreKnown`] over the
    /// cross-fitted runs of [`Holdout::Folds`]: the rarity weights and the
    /// threshold come from every training run, each checked against the
    /// other folds' invariants.
    FoldsScore,
}

/// `holdout` as written: a flag or a mode's name.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawHoldout {
    Flag(bool),
    Mode(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStrategy {
    name: String,
    kind: String,
    detector: Option<String>,
    holdout: Option<RawHoldout>,
    unseen_points: Option<String>,
    confidence: Option<f64>,
    kinds_off: Option<Vec<String>>,
    patch: Option<PathBuf>,
    aspect: Option<PathBuf>,
    #[serde(default)]
    args: BTreeMap<String, toml::Value>,
    /// Argument name → report name.
    #[serde(default)]
    reports: BTreeMap<String, String>,
    #[serde(default)]
    cflags: String,
    #[serde(default)]
    ldflags: String,
    #[serde(default)]
    libs: String,
    #[serde(default)]
    extra_files: Vec<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReport {
    name: String,
    aspect: PathBuf,
    #[serde(default)]
    args: BTreeMap<String, toml::Value>,
    make: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    name: String,
    cmd: String,
    #[serde(default)]
    inputs: Vec<String>,
    stdin: Option<String>,
    #[serde(default)]
    outputs: Vec<String>,
}

/// `[study.test_lines]`: a test per non-empty line of `file` (lines
/// starting with `#` are comments), named `PREFIX<line number>`, whose
/// command is `cmd` with `{}` replaced by the line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTestLines {
    file: PathBuf,
    cmd: String,
    #[serde(default = "default_line_prefix")]
    prefix: String,
    #[serde(default)]
    inputs: Vec<String>,
}

fn default_line_prefix() -> String {
    "line".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuite {
    test: Vec<RawTest>,
}

impl Study {
    /// Reads and validates a study file.
    pub fn load(file: &Path) -> anyhow::Result<Study> {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read study file {}", file.display()))?;
        let file = std::path::absolute(file).with_context(|| format!("cannot resolve {}", file.display()))?;
        Study::parse(&text, &file)
    }

    /// Parses study text as if read from `file` (which anchors relative paths).
    pub fn parse(text: &str, file: &Path) -> anyhow::Result<Study> {
        let raw: RawFile = toml::from_str(text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let cx = ParseCx {
            file,
            base: file.parent().unwrap_or(Path::new("/")).to_path_buf(),
        };
        let s = raw.study;
        let mut raw_tests = raw.test;
        if let Some(suite) = &s.suite {
            raw_tests.extend(cx.suite(suite)?);
        }
        if let Some(lines) = &s.test_lines {
            raw_tests.extend(cx.test_lines(lines)?);
        }
        let percentages = cx.settings(&s)?;
        let versions = cx.versions(raw.version)?;
        let reports = cx.reports(raw.report)?;
        let strategies = cx.strategies(raw.strategy, &reports)?;
        let tests = cx.tests(raw_tests)?;
        let training = cx.training(s.training.as_deref(), &tests)?;
        Ok(Study {
            file: file.to_path_buf(),
            name: s.name,
            source: cx.at(&s.source),
            patch: s.patch.map(|p| cx.at(&p)),
            build: s.build,
            cflags: s.cflags,
            env: s.env,
            prepare: s.prepare,
            inputs: cx.at(&s.inputs),
            weaver: s.weaver.map(|p| cx.at(&p)),
            work_dir: cx.at(&s.work_dir),
            out_dir: cx.at(&s.out_dir),
            seed: s.seed,
            draws: s.draws,
            percentages,
            alarm_budget: s.alarm_budget,
            judging: s.judging,
            timeout: Duration::from_secs_f64(s.timeout_secs),
            output_cap: s.output_cap_bytes,
            compare_stderr: s.compare_stderr,
            versions,
            reports,
            strategies,
            tests,
            training,
        })
    }

    /// The reference version, whose outputs define the oracle.
    pub fn original(&self) -> &Version {
        &self.versions[0]
    }

    /// The faulty versions, the columns of every fault matrix.
    pub fn faulty(&self) -> &[Version] {
        &self.versions[1..]
    }

    /// The training percentages and draws every detector is scored at.
    pub fn schedule(&self) -> super::evaluate::Schedule {
        super::evaluate::Schedule {
            percentages: self.percentages.clone(),
            draws: self.draws,
            seed: self.seed,
            judging: self.judging,
        }
    }

    /// The strategy whose builds and runs strategy `i` uses: the first one
    /// built and run the same way (same kind, aspect, arguments, reports,
    /// flags, files and detector records), such as INV and INV_h, which
    /// differ only in how their runs are scored.
    pub fn runs_of(&self, i: usize) -> usize {
        let same = |a: &Strategy, b: &Strategy| {
            (
                &a.kind,
                a.detector,
                &a.cflags,
                &a.ldflags,
                &a.libs,
                &a.extra_files,
            ) == (
                &b.kind,
                b.detector,
                &b.cflags,
                &b.ldflags,
                &b.libs,
                &b.extra_files,
            )
        };
        (0..i)
            .find(|&j| same(&self.strategies[j], &self.strategies[i]))
            .unwrap_or(i)
    }

    /// The study file's directory.
    pub fn base_dir(&self) -> &Path {
        self.file.parent().unwrap_or(Path::new("/"))
    }
}

/// Reading one study file: paths relative to its folder, errors naming the
/// file and the key.
struct ParseCx<'a> {
    file: &'a Path,
    base: PathBuf,
}

impl ParseCx<'_> {
    fn at(&self, p: &Path) -> PathBuf {
        self.base.join(p)
    }

    fn err(&self, key: &str, msg: String) -> anyhow::Error {
        anyhow::anyhow!("{}: key `{key}`: {msg}", self.file.display())
    }

    /// The tests of the suite file `suite` names.
    fn suite(&self, suite: &Path) -> anyhow::Result<Vec<RawTest>> {
        let path = self.at(suite);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| self.err("study.suite", format!("cannot read {}: {e}", path.display())))?;
        let suite: RawSuite =
            toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(suite.test)
    }

    /// The tests of `[study.test_lines]`.
    fn test_lines(&self, lines: &RawTestLines) -> anyhow::Result<Vec<RawTest>> {
        let path = self.at(&lines.file);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            self.err(
                "study.test_lines.file",
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        if !lines.cmd.contains("{}") {
            bail!(self.err(
                "study.test_lines.cmd",
                "must contain `{}`, where each line goes".into()
            ));
        }
        Ok(text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(n, l)| RawTest {
                name: format!("{}{}", lines.prefix, n + 1),
                cmd: lines.cmd.replace("{}", l.trim()),
                inputs: lines.inputs.clone(),
                stdin: None,
                outputs: Vec::new(),
            })
            .collect())
    }

    /// Checks the `[study]` settings; returns the report percentages.
    fn settings(&self, s: &RawStudy) -> anyhow::Result<Vec<u32>> {
        if s.build.is_empty() {
            bail!(self.err("study.build", "needs at least one command".into()));
        }
        if s.draws == 0 {
            bail!(self.err("study.draws", "must be at least 1".into()));
        }
        if !(0.0..=100.0).contains(&s.alarm_budget) {
            bail!(self.err("study.alarm_budget", "must be a percentage, 0 to 100".into()));
        }
        if !(s.timeout_secs.is_finite() && s.timeout_secs > 0.0 && s.timeout_secs < 1e6) {
            bail!(self.err(
                "study.timeout_secs",
                "must be a positive number of seconds".into()
            ));
        }
        let percentages = s
            .percentages
            .clone()
            .unwrap_or_else(|| REPORT_PERCENTAGES.to_vec());
        if percentages.is_empty() || percentages.iter().any(|&p| p == 0 || p > 100) {
            bail!(self.err("study.percentages", "must be a non-empty list of 1..=100".into()));
        }
        let mut sorted = percentages.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted != percentages {
            bail!(self.err("study.percentages", "must be strictly increasing".into()));
        }
        Ok(percentages)
    }

    fn versions(&self, raw: Vec<RawVersion>) -> anyhow::Result<Vec<Version>> {
        if raw.len() < 2 {
            bail!(self.err(
                "version",
                "needs the original and at least one faulty version".into()
            ));
        }
        let versions: Vec<Version> = raw
            .into_iter()
            .map(|v| Version {
                name: v.name,
                cflags: v.cflags,
                patch: v.patch.map(|p| self.at(&p)),
                source: v.source.map(|p| self.at(&p)),
            })
            .collect();
        for (i, v) in versions.iter().enumerate() {
            if let Some(source) = v.source.as_ref().filter(|s| !s.exists()) {
                bail!(self.err(
                    &format!("version[{i}].source"),
                    format!("{} does not exist", source.display())
                ));
            }
        }
        unique_names(versions.iter().map(|v| &v.name), |i, m| {
            self.err(&format!("version[{i}].name"), m)
        })?;
        Ok(versions)
    }

    fn reports(&self, raw: Vec<RawReport>) -> anyhow::Result<Vec<Report>> {
        let reports: Vec<Report> = raw
            .into_iter()
            .map(|r| Report {
                name: r.name,
                aspect: self.at(&r.aspect),
                args: r.args,
                make: r.make,
            })
            .collect();
        unique_names(reports.iter().map(|r| &r.name), |i, m| {
            self.err(&format!("report[{i}].name"), m)
        })?;
        Ok(reports)
    }

    fn strategies(&self, raw: Vec<RawStrategy>, reports: &[Report]) -> anyhow::Result<Vec<Strategy>> {
        let mut strategies = Vec::new();
        for (i, r) in raw.into_iter().enumerate() {
            let kind = self.strategy_kind(i, &r, reports)?;
            let detector = match r.detector.as_deref() {
                None | Some("ranges") => Detector::Ranges,
                Some("invariants") => Detector::Invariants,
                Some(other) => bail!(self.err(
                    &format!("strategy[{i}].detector"),
                    format!("unknown detector {other:?} (expected \"ranges\" or \"invariants\")")
                )),
            };
            let holdout = match r.holdout {
                None | Some(RawHoldout::Flag(false)) => Holdout::Off,
                Some(_) if detector != Detector::Invariants => bail!(self.err(
                    &format!("strategy[{i}].holdout"),
                    "holdout applies to the invariants detector only".to_string()
                )),
                Some(RawHoldout::Flag(true)) => Holdout::Pairs,
                Some(RawHoldout::Mode(m)) => match m.as_str() {
                    "pairs" => Holdout::Pairs,
                    "count" => Holdout::Count,
                    "halves" => Holdout::Halves,
                    "split" => Holdout::Split,
                    "score" => Holdout::Score,
                    "score_invariants" => Holdout::ScoreInvariants,
                    "score_known" => Holdout::ScoreKnown,
                    "folds" => Holdout::Folds,
                    "folds_score" => Holdout::FoldsScore,
                    other => bail!(self.err(
                        &format!("strategy[{i}].holdout"),
                        format!(
                            "unknown hold-out {other:?} (expected true, false, \"pairs\", \"count\", \"halves\", \"split\", \"score\", \"score_invariants\", \"score_known\", \"folds\" or \"folds_score\")"
                        )
                    )),
                },
            };
            let confidence = match r.confidence {
                None => weft_invariants::Config::default().conf_limit,
                Some(_) if detector != Detector::Invariants => bail!(self.err(
                    &format!("strategy[{i}].confidence"),
                    "confidence applies to the invariants detector only".to_string()
                )),
                Some(c) if c > 0.0 && c < 1.0 => c,
                Some(c) => bail!(self.err(
                    &format!("strategy[{i}].confidence"),
                    format!("must be between 0 and 1 (exclusive), not {c}")
                )),
            };
            let kinds_off = match r.kinds_off {
                None => KindSet::daikon_off(),
                Some(_) if detector != Detector::Invariants => bail!(self.err(
                    &format!("strategy[{i}].kinds_off"),
                    "kinds_off applies to the invariants detector only".to_string()
                )),
                Some(names) => {
                    KindSet::parse(&names).map_err(|e| self.err(&format!("strategy[{i}].kinds_off"), e))?
                }
            };
            let unseen_points = match r.unseen_points.as_deref() {
                None => UnseenPoints::default(),
                Some(_) if detector != Detector::Invariants => bail!(self.err(
                    &format!("strategy[{i}].unseen_points"),
                    "unseen_points applies to the invariants detector only".to_string()
                )),
                Some(text) => text
                    .parse()
                    .map_err(|e: String| self.err(&format!("strategy[{i}].unseen_points"), e))?,
            };
            strategies.push(Strategy {
                name: r.name,
                kind,
                detector,
                holdout,
                confidence,
                kinds_off,
                unseen_points,
                cflags: r.cflags,
                ldflags: r.ldflags,
                libs: r.libs,
                extra_files: r.extra_files.iter().map(|p| self.at(p)).collect(),
            });
        }
        unique_names(strategies.iter().map(|s| &s.name), |i, m| {
            self.err(&format!("strategy[{i}].name"), m)
        })?;
        let reserved = |n: &str| n == super::jobs::PLAIN || n.ends_with(super::jobs::REPORT_SUFFIX);
        if let Some(i) = strategies.iter().position(|s| reserved(&s.name)) {
            bail!(self.err(
                &format!("strategy[{i}].name"),
                "\"plain\" and names ending in \".report\" are reserved".into()
            ));
        }
        Ok(strategies)
    }

    /// What strategy `i`, `r`, does: apply a patch or weave an aspect.
    fn strategy_kind(&self, i: usize, r: &RawStrategy, reports: &[Report]) -> anyhow::Result<StrategyKind> {
        let key = |k: &str| format!("strategy[{i}].{k}");
        Ok(match r.kind.as_str() {
            "patch" if !r.reports.is_empty() => {
                bail!(self.err(&key("reports"), "needs kind \"weave\"".into()))
            }
            "patch" => StrategyKind::Patch {
                patch: self.at(r
                    .patch
                    .as_ref()
                    .ok_or_else(|| self.err(&key("patch"), "required by kind \"patch\"".into()))?),
            },
            "weave" => {
                let mut used = Vec::new();
                for (arg, name) in &r.reports {
                    let Some(index) = reports.iter().position(|rep| &rep.name == name) else {
                        bail!(self.err(
                            &key(&format!("reports.{arg}")),
                            format!("no [[report]] named {name:?}")
                        ));
                    };
                    if r.args.contains_key(arg) {
                        bail!(self.err(&key(&format!("reports.{arg}")), "also given in `args`".into()));
                    }
                    used.push((arg.clone(), index));
                }
                StrategyKind::Weave {
                    aspect: self.at(r
                        .aspect
                        .as_ref()
                        .ok_or_else(|| self.err(&key("aspect"), "required by kind \"weave\"".into()))?),
                    args: r.args.clone(),
                    reports: used,
                }
            }
            other => bail!(self.err(
                &key("kind"),
                format!("unknown kind {other:?} (expected \"patch\" or \"weave\")")
            )),
        })
    }

    fn tests(&self, raw: Vec<RawTest>) -> anyhow::Result<Vec<TestCase>> {
        if raw.is_empty() {
            bail!(self.err("test", "the suite has no tests".into()));
        }
        let tests: Vec<TestCase> = raw
            .into_iter()
            .map(|t| TestCase {
                name: t.name,
                cmd: t.cmd,
                inputs: t.inputs,
                stdin: t.stdin,
                outputs: t.outputs,
            })
            .collect();
        unique_names(tests.iter().map(|t| &t.name), |i, m| {
            self.err(&format!("test[{i}].name"), m)
        })?;
        for (i, t) in tests.iter().enumerate() {
            let paths = t.inputs.iter().chain(&t.stdin).chain(&t.outputs);
            if let Some(bad) = paths.into_iter().find(|p| !is_plain_relative(p)) {
                bail!(self.err(
                    &format!("test[{i}]"),
                    format!("path {bad:?} must be relative and stay inside the run directory")
                ));
            }
        }
        Ok(tests)
    }

    /// The training tests: those the `study.training` globs select, or all.
    fn training(&self, globs: Option<&[String]>, tests: &[TestCase]) -> anyhow::Result<BTreeSet<String>> {
        let Some(globs) = globs else {
            return Ok(tests.iter().map(|t| t.name.clone()).collect());
        };
        let mut b = globset::GlobSetBuilder::new();
        for g in globs {
            b.add(globset::Glob::new(g).map_err(|e| self.err("study.training", e.to_string()))?);
        }
        let set = b.build().map_err(|e| self.err("study.training", e.to_string()))?;
        let chosen: BTreeSet<String> = tests
            .iter()
            .filter(|t| set.is_match(&t.name))
            .map(|t| t.name.clone())
            .collect();
        if chosen.is_empty() {
            bail!(self.err("study.training", "selects no test".into()));
        }
        Ok(chosen)
    }
}

/// Whether `p` is relative, non-empty and has no `..` component.
fn is_plain_relative(p: &str) -> bool {
    let path = Path::new(p);
    !p.is_empty()
        && path.is_relative()
        && path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir))
}

fn unique_names<'a>(
    names: impl Iterator<Item = &'a String>,
    err: impl Fn(usize, String) -> anyhow::Error,
) -> anyhow::Result<()> {
    let mut seen = BTreeSet::new();
    for (i, n) in names.enumerate() {
        if n.is_empty() || n.contains(['/', '\\']) || n.starts_with('.') {
            bail!(err(
                i,
                format!("{n:?} must be non-empty, without '/' and not start with '.'")
            ));
        }
        if !seen.insert(n.clone()) {
            bail!(err(i, format!("duplicate name {n:?}")));
        }
    }
    Ok(())
}
