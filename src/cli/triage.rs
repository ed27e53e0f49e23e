//! `weft triage`: run every revision of a meta program on the same inputs,
//! group the revisions into behaviour classes and print the questions that
//! tell the classes apart. The finding is in `weft_triage`; this file
//! parses arguments, checks them before anything runs, writes the reports
//! and prints.
//!
//! Exit status: 0 the inputs tell apart every revision that must be (with
//! --truth, revisions of different labels; without, any two revisions); 1
//! some cannot be told apart; 2 usage or bad input.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use weft_triage::{
    Aspect, Fuzz, Input, Observed, Plan, Source, StdinTest, ask, classes, conclusion, inputs_from_dir,
    inputs_from_tests, is_json_report, is_markdown_report, markdown_report, observe, parse_revisions,
    read_truth, summary_text,
};

use super::files::replace_file;

/// Run every revision of a meta program on the same inputs, group the
/// revisions that behave the same, and ask what tells the groups apart.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["inputs", "tests"])))]
#[command(after_help = "Examples:
  weft triage --revisions 1-8 --inputs inputs/ -- ./prog @@
  weft triage --revisions 0,2,5 --tests tests.txt --truth truth.txt --json triage.json
  weft triage --revisions 1-8 --inputs inputs/ --ask -- ./prog
  afl-cc -o prog prog.c    # coverage for the fuzzer (a plain build works too)
  weft triage --revisions 1-8 --inputs inputs/ --fuzz 30 --fuzz-into found/ -- ./prog
  weft triage --revisions 1-8 --tests tests.txt --fuzz 30 --fuzz-into found/

With --fuzz SECS, every class of several revisions gets SECS seconds of
afl-fuzz, seeded with the inputs, looking for an input on which its
revisions differ (status or stdout); those found are saved in --fuzz-into and
the revisions run again on all inputs, so the classes and questions use them.
Classes that split are fuzzed again, in rounds, until a round finds nothing.
With --tests, tests ending with `< FILE` keep their arguments (up to 3
argument vectors per class, sharing its time) and their stdin varies; each
input found becomes such a test, listed in --fuzz-into/tests.

Every revision runs once on every input, with WEFT_REV=<revision> and
WEFT_OUT=<a fresh directory>, starting in the current directory. With
--inputs, `@@` in the command is replaced by the input file's path; with no
`@@` the file is fed on stdin. With --tests, each line that is neither empty
nor a # comment is one shell command, and there is no COMMAND.

Revisions that do the same on every input form a behaviour class. Each
question asks what the right revision does on one input; its answers are
what the classes do there. A truth file (`<revision> <label>` lines) gives
the classes' purity.

Exit status: 0 the inputs tell apart every revision that must be (with
--truth, revisions of different labels; without, any two revisions), 1 some
cannot be told apart, 2 usage or bad input. See docs/triage.md.")]
pub struct Args {
    /// Revisions to run: numbers and ranges, e.g. 1-8 or 0,2,5. Revision 0,
    /// the original, is added unless --no-original.
    #[arg(long, value_name = "LIST")]
    revisions: String,
    /// Do not add revision 0 (the original) to the revisions.
    #[arg(long)]
    no_original: bool,
    /// A directory whose regular files are the inputs, one run each.
    #[arg(long, value_name = "DIR")]
    inputs: Option<PathBuf>,
    /// A file of test commands, one a line.
    #[arg(long, value_name = "FILE")]
    tests: Option<PathBuf>,
    /// Seconds a run may take before it is stopped (and observed as
    /// `timeout`).
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    timeout: f64,
    /// Runs at a time (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_name = "N")]
    jobs: usize,
    /// What to compare, among status, stdout, stderr and outputs (the
    /// values the outputs monitor captured).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "status,stdout,outputs",
        value_parser = parse_aspect
    )]
    compare: Vec<Aspect>,
    /// Known labels, `<revision> <label>` a line (e.g. `3 correct`): report
    /// the classes' purity and judge the exit status by labels.
    #[arg(long, value_name = "FILE")]
    truth: Option<PathBuf>,
    /// Write the report as JSON (an existing file is replaced only if it
    /// is a triage report).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the report as Markdown (an existing file is replaced only if
    /// it is a triage report).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Ask the questions on the terminal, then name the revisions that
    /// behave as answered.
    #[arg(long)]
    ask: bool,
    /// Keep every run's files (stdout, stderr, WEFT_OUT) in DIR, a new
    /// directory, as DIR/rev-R/input-I.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Look for inputs the given ones miss: give each class of several
    /// revisions SECS seconds of afl-fuzz on a harness that runs its
    /// revisions on one input and stops where they differ; each such input
    /// is saved in --fuzz-into and the triage runs again with it. With
    /// --tests, tests ending with `< FILE` keep their arguments and their
    /// stdin varies. Needs AFL++ (afl-fuzz, afl-cc).
    #[arg(long, value_name = "SECS", requires = "fuzz_into")]
    fuzz: Option<u64>,
    /// A new directory for the inputs --fuzz finds, `rR-class-C-N` (found
    /// in round R while fuzzing class C).
    #[arg(long, value_name = "DIR", requires = "fuzz")]
    fuzz_into: Option<PathBuf>,
    /// The command running the meta program, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

fn parse_aspect(text: &str) -> Result<Aspect, String> {
    text.parse().map_err(|e: anyhow::Error| e.to_string())
}

/// Runs the triage; every error is usage or bad input (status 2).
pub fn run(args: Args) -> anyhow::Result<i32> {
    Ok(super::bad_input_exits_2(triage(args)))
}

fn triage(args: Args) -> anyhow::Result<i32> {
    let plan = plan(&args)?;
    let truth = args.truth.as_deref().map(read_truth).transpose()?;
    if let (Some(file), Some(truth)) = (&args.truth, &truth)
        && !plan.revisions.iter().any(|r| truth.contains_key(r))
    {
        bail!("{}: labels none of the revisions run", file.display());
    }
    check_targets(&args)?;
    if args.ask && !std::io::stdin().is_terminal() {
        bail!("--ask asks on the terminal, but stdin is not one (leave --ask out to print the questions)");
    }
    let mut observed = observe(&plan)?;
    if let (Some(seconds), Some(into)) = (args.fuzz, &args.fuzz_into) {
        observed = fuzz(&plan, observed, Duration::from_secs(seconds), into)?;
    }
    let table = observed.table;
    let report = weft_triage::analyse(&args.command, &table, truth.as_ref())?;
    if let Some(file) = &args.json {
        replace_file(file, &report.to_json(), "triage report", is_json_report)?;
    }
    if let Some(file) = &args.markdown {
        replace_file(
            file,
            &markdown_report(&report),
            "triage report",
            is_markdown_report,
        )?;
    }
    print!("{}", summary_text(&report, !args.ask));
    let runs = table.revisions.len() * table.inputs.len();
    println!(
        "{runs} runs in {:.2} s; scratch removed in {:.2} s.",
        observed.run_time.as_secs_f64(),
        observed.clean_up_time.as_secs_f64()
    );
    if args.ask {
        let outcome = ask(
            &report,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
        )?;
        println!("{}", conclusion(&outcome));
    }
    Ok(if report.told_apart { 0 } else { 1 })
}

/// Fuzzes the classes of `observed` in rounds: after a round that found
/// inputs, every revision runs again on all inputs, and the classes that
/// split, or are new, are fuzzed in the next round (a class fuzzed
/// without result is not fuzzed again). Prints what each round found.
fn fuzz(plan: &Plan, mut observed: Observed, budget: Duration, into: &Path) -> anyhow::Result<Observed> {
    std::fs::create_dir(into).with_context(|| format!("cannot create {}", into.display()))?;
    let fuzz = Fuzz {
        program: &plan.program,
        start_dir: &plan.start_dir,
        budget,
        timeout: plan.timeout,
        into,
    };
    let first = classes(&observed.table).len();
    let mut again = plan.clone();
    let mut fruitless: Vec<Vec<u32>> = Vec::new();
    for round in 1.. {
        let classes: Vec<_> = classes(&observed.table)
            .into_iter()
            .filter(|c| !fruitless.contains(&c.revisions))
            .collect();
        let campaigns = fuzz.run(&classes, &again.inputs, round)?;
        let mut found = Vec::new();
        for c in campaigns {
            let revisions: Vec<String> = c.revisions.iter().map(u32::to_string).collect();
            println!(
                "Round {round}: fuzzed revisions {} for {:.1} s: {} distinguishing inputs.",
                revisions.join(", "),
                c.time.as_secs_f64(),
                c.found.len()
            );
            if c.found.is_empty() {
                fruitless.push(c.revisions);
            }
            found.extend(c.found);
        }
        if found.is_empty() {
            break;
        }
        again.inputs.extend(found);
        observed = observe(&again)?;
    }
    let after = classes(&observed.table).len();
    println!("Classes before fuzzing: {first}; after: {after}.\n");
    Ok(observed)
}

/// What to run, from the arguments, every one checked.
fn plan(args: &Args) -> anyhow::Result<Plan> {
    let revisions = parse_revisions(&args.revisions, !args.no_original)?;
    let inputs = match (&args.inputs, &args.tests) {
        (Some(dir), _) if args.command.is_empty() => {
            bail!("--inputs {} needs the command to run, after `--`", dir.display())
        }
        (Some(dir), _) => inputs_from_dir(dir)?,
        (None, Some(file)) if !args.command.is_empty() => bail!(
            "with --tests each line of {} is a whole command: drop `-- {}`",
            file.display(),
            args.command.join(" ")
        ),
        (None, Some(file)) => inputs_from_tests(file)?,
        (None, None) => bail!("give the inputs: --inputs DIR or --tests FILE"),
    };
    if let Some(into) = &args.fuzz_into {
        let here = std::env::current_dir().context("cannot read the current directory")?;
        let from_stdin = |i: &Input| match &i.source {
            Source::Test(line) => StdinTest::parse(line, &here).is_some(),
            Source::File(_) => true,
        };
        if !inputs.iter().any(from_stdin) {
            bail!("--fuzz with --tests needs tests ending with `< FILE` (their stdin is what varies)");
        }
        if args.keep.is_some() {
            bail!("--fuzz runs the revisions twice: leave out --keep");
        }
        if into.exists() {
            bail!("--fuzz-into {}: give a new directory (it exists)", into.display());
        }
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout {}: give a positive number of seconds", args.timeout);
    }
    let mut compare = args.compare.clone();
    compare.sort();
    compare.dedup();
    Ok(Plan {
        revisions,
        inputs,
        program: args.command.clone(),
        start_dir: std::env::current_dir().context("cannot read the current directory")?,
        compare,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs: args.jobs,
        keep: args.keep.clone(),
    })
}

/// Refuses, before anything runs, report files that would be refused
/// after: an existing file that is not a triage report, or one file for
/// both reports.
fn check_targets(args: &Args) -> anyhow::Result<()> {
    if let (Some(json), Some(md)) = (&args.json, &args.markdown)
        && std::path::absolute(json)? == std::path::absolute(md)?
    {
        bail!("--json and --markdown name the same file {}", json.display());
    }
    refuse_foreign(args.json.as_deref(), is_json_report)?;
    refuse_foreign(args.markdown.as_deref(), is_markdown_report)
}

/// An error when `target` exists and `is_ours` does not recognise it.
fn refuse_foreign(target: Option<&Path>, is_ours: fn(&str) -> bool) -> anyhow::Result<()> {
    if let Some(file) = target
        && let Some(old) = existing(file)
        && !is_ours(&old)
    {
        bail!(
            "refusing to replace `{}`: it is not a triage report (weft only overwrites its own output)",
            file.display()
        );
    }
    Ok(())
}

/// The text of `file` if it exists (empty when unreadable as text).
fn existing(file: &Path) -> Option<String> {
    file.exists()
        .then(|| std::fs::read_to_string(file).unwrap_or_default())
}
