//! `weft experiment`.

use anyhow::Context;
use std::path::PathBuf;

use crate::experiment::{self, Study, Unusable};

/// Run a fault-detection study: build every version, run the suite,
/// score range monitoring against the output oracle, write the report.
/// Runs are kept in work_dir/study.sqlite; a re-run redoes only what a
/// changed source, aspect, flag or input touches, and an interrupted
/// study resumes where it stopped.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The study file (TOML).
    study: PathBuf,
    /// Parallel steps (0: one per core).
    #[arg(short, long, default_value_t = 0)]
    jobs: usize,
    /// Write the study as shell command lines, one file per phase, into
    /// this directory instead of executing it: a line builds one version,
    /// makes one report file, or runs every test on one build.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["collect", "step"])]
    plan: Option<PathBuf>,
    /// Merge the shards that the plan's lines wrote (work_dir/shards) into
    /// the study database (work_dir/study.sqlite) and write the report.
    #[arg(long, conflicts_with = "step")]
    collect: bool,
    /// Execute one line of a plan: a step (`build/ARM/VERSION`,
    /// `report/NAME`, `learn`) or every run of one build
    /// (`run/ARM/VERSION`), whose results go to a shard of their own that
    /// --collect merges (`learn` merges the shards of earlier phases).
    #[arg(long, value_name = "ID")]
    step: Option<String>,
    /// Read the finished runs and print only what each invariant arm's
    /// traces can see: per faulty version, the failing runs whose traces
    /// differ from the original's on the same test (no learning, no
    /// scoring, no report). The full report holds the same tables.
    #[arg(long, conflicts_with_all = ["plan", "collect", "step"])]
    reach: bool,
}

/// Runs the command; a study database weft will not use (foreign,
/// damaged) is bad input: exit status 2.
pub fn run(args: Args) -> anyhow::Result<i32> {
    match run_study(args) {
        Err(err) if err.chain().any(|cause| cause.is::<Unusable>()) => {
            eprintln!("error: {err:#}");
            Ok(2)
        }
        result => result,
    }
}

fn run_study(args: Args) -> anyhow::Result<i32> {
    let study = Study::load(&args.study)?;
    // This very executable is the weft the study names: `$WEFT` of report
    // commands, the default weaver, and the worker of a plan's lines.
    let weft = std::env::current_exe().context("cannot locate the weft executable")?;
    if let Some(dir) = &args.plan {
        experiment::prepare(&study)?;
        // A plan's lines run this executable's `experiment --step`.
        let worker = [weft.display().to_string(), "experiment".into(), "--step".into()];
        for file in experiment::write_plan(&study, dir, &worker)? {
            println!("{}", file.display());
        }
        return Ok(0);
    }
    if args.reach {
        for arm in experiment::reach_only(&study, &weft)? {
            println!("{}", experiment::reach_table(&arm).to_markdown());
            for noise in &arm.unstable {
                println!("- left out as noise: {noise}");
            }
            println!();
        }
        return Ok(0);
    }
    if let Some(id) = &args.step {
        experiment::run_step(&study, id, &weft)?;
        return Ok(0);
    }
    let (results, stats) = if args.collect {
        (experiment::collect_only(&study, &weft)?, None)
    } else {
        let (r, s) = experiment::run_local(&study, args.jobs, &weft)?;
        (r, Some(s))
    };
    if let Some(s) = stats {
        eprintln!(
            "builds: {} done, {} reused; runs: {} done, {} reused; reports: {} done, {} reused",
            s.built, s.builds_reused, s.ran, s.runs_reused, s.reports_made, s.reports_reused
        );
    }
    let summary = experiment::write_report(&study, &results, stats)?;
    println!("{summary}");
    println!(
        "report written to {} (report.md: every table; tables/*.csv, matrices/*.csv, curves.svg)",
        study.out_dir.display()
    );
    Ok(0)
}
