//! Executing a study: locally over all cores, or as a plan of shell
//! command lines for an external engine followed by a collection.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use rayon::prelude::*;

use super::cache::CacheStats;
use super::collect::{Results, collect, collect_reach};
use super::exec::Ctx;
use super::jobs::{Job, parse_task, phases, task_id};
use super::study::Study;
use super::trace_reach::ArmReach;
use weft_run::{Progress, command};

/// Runs the study's `prepare` command, if any, in the study's directory.
pub fn prepare(study: &Study) -> anyhow::Result<()> {
    let Some(cmd) = &study.prepare else { return Ok(()) };
    let status = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(study.base_dir())
        .status()
        .with_context(|| format!("cannot run prepare command `{cmd}`"))?;
    if !status.success() {
        bail!(
            "{}: key `study.prepare`: `{cmd}` failed ({status})",
            study.file.display()
        );
    }
    Ok(())
}

/// Executes every step here, `jobs` at a time (0 = all cores), then
/// collects the results. `weft` is the weft executable: report commands
/// see it as `$WEFT`, and it weaves unless the study names a `weaver`.
pub fn run_local(study: &Study, jobs: usize, weft: &Path) -> anyhow::Result<(Results, CacheStats)> {
    prepare(study)?;
    let ctx = Ctx::new(study, weft)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let all: Vec<_> = phases(study).into_iter().filter(|p| !p.is_empty()).collect();
    for (i, phase) in all.iter().enumerate() {
        // One estimate per phase: a build takes a hundred runs' time, so
        // the pace of one phase says nothing of the next.
        let label = format!(
            "experiment (phase {} of {}, {})",
            i + 1,
            all.len(),
            phase[0].kind()
        );
        let progress = Progress::new(label, "steps", phase.len());
        pool.install(|| {
            phase.par_iter().try_for_each(|&job| {
                progress.message(job.id(study));
                let r = ctx.execute(job);
                progress.step();
                r
            })
        })?;
        progress.finish();
        ctx.store.flush()?;
    }
    Ok((collect(&ctx)?, ctx.counters.snapshot()))
}

/// Writes one file of shell command lines per phase into `dir`
/// (`phase-1.sh`, …); the phases must be executed in order, the lines of a
/// phase in any order and anywhere that sees the study's work directory.
/// A line is one build, one report file, or every run of one build (see
/// `task_id`): `WORKER… TASK STUDY_FILE`, every word quoted, where
/// `worker` is the command line, given by the caller, of a process that
/// calls [`run_step`] with the task and the loaded study file (`weft`'s is
/// `weft experiment --step`). Studies know no command line of their own.
pub fn write_plan(study: &Study, dir: &Path, worker: &[String]) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut files = Vec::new();
    for (i, phase) in phases(study).iter().enumerate() {
        let mut tasks: Vec<String> = phase.iter().map(|&job| task_id(study, job)).collect();
        tasks.dedup();
        let lines: String = tasks
            .iter()
            .map(|task| {
                let mut words = worker.to_vec();
                words.extend([task.clone(), study.file.display().to_string()]);
                command(&words) + "\n"
            })
            .collect();
        let path = dir.join(format!("phase-{}.sh", i + 1));
        std::fs::write(&path, lines).with_context(|| format!("cannot write {}", path.display()))?;
        files.push(path);
    }
    Ok(files)
}

/// Executes one task of a plan (a line: a step, or the runs of a build),
/// its runs' results going to the task's own shard. `weft` is the weft
/// executable, as for [`run_local`].
pub fn run_step(study: &Study, id: &str, weft: &Path) -> anyhow::Result<()> {
    let jobs = parse_task(study, id)?;
    // Learning reads the original's runs, which earlier phases' workers
    // left in their shards: its step, alone in its phase, merges them into
    // the study database, where the later workers read them.
    let ctx = if jobs == [Job::Learn] {
        Ctx::new(study, weft)?
    } else {
        Ctx::for_step(study, id, weft)?
    };
    for job in jobs {
        ctx.execute(job)?;
    }
    ctx.store.flush()
}

/// What each invariant arm's traces can see of the faulty versions
/// ([`ArmReach`]), from the finished runs alone (shards merged as by
/// [`collect_only`]): nothing is learned or scored, no report written.
pub fn reach_only(study: &Study, weft: &Path) -> anyhow::Result<Vec<ArmReach>> {
    collect_reach(&Ctx::new(study, weft)?)
}

/// Collects the results of a plan executed elsewhere; `weft` is the weft
/// executable, as for [`run_local`] (collecting checks that no run is
/// stale, and the keys of woven builds and reports hash it).
pub fn collect_only(study: &Study, weft: &Path) -> anyhow::Result<Results> {
    collect(&Ctx::new(study, weft)?)
}
