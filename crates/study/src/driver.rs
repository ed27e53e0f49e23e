//! Executing a study: locally over all cores, or as a plan of shell
//! command lines for an external engine followed by a collection.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::cache::CacheStats;
use super::collect::{Results, collect};
use super::exec::Ctx;
use super::jobs::{Job, phases};
use super::study::Study;

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
/// collects the results.
pub fn run_local(study: &Study, jobs: usize) -> anyhow::Result<(Results, CacheStats)> {
    prepare(study)?;
    let ctx = Ctx::new(study)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let all = phases(study);
    let total: usize = all.iter().map(Vec::len).sum();
    let bar = progress(total);
    let plain = PlainProgress::new(total);
    for phase in &all {
        pool.install(|| {
            phase.par_iter().try_for_each(|&job| {
                bar.set_message(job.id(study));
                let r = ctx.execute(job);
                bar.inc(1);
                plain.step();
                r
            })
        })?;
    }
    bar.finish_and_clear();
    Ok((collect(&ctx)?, ctx.counters.snapshot()))
}

fn progress(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed}, about {eta} left {wide_msg}")
    {
        bar.set_style(style);
    }
    bar
}

/// Progress as plain lines on stderr when it is not a terminal (a log, a
/// batch job), where the bar is hidden: one line every
/// [`PLAIN_PROGRESS_EVERY`] at most, so a long study is never silent.
struct PlainProgress {
    total: usize,
    done: std::sync::atomic::AtomicUsize,
    start: std::time::Instant,
    last: std::sync::Mutex<std::time::Instant>,
    enabled: bool,
}

/// How often [`PlainProgress`] prints at most.
const PLAIN_PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

impl PlainProgress {
    fn new(total: usize) -> PlainProgress {
        let now = std::time::Instant::now();
        PlainProgress {
            total,
            done: 0.into(),
            start: now,
            last: std::sync::Mutex::new(now),
            enabled: !std::io::stderr().is_terminal(),
        }
    }

    fn step(&self) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if !self.enabled {
            return;
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= PLAIN_PROGRESS_EVERY || done == self.total {
            *last = std::time::Instant::now();
            eprintln!("{}", progress_line(done, self.total, self.start.elapsed()));
        }
    }
}

/// `experiment: 1200/4770 steps, 3m 10s, about 9m 25s left`.
fn progress_line(done: usize, total: usize, elapsed: std::time::Duration) -> String {
    let clock = |secs: u64| match secs {
        s if s >= 3600 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        s if s >= 60 => format!("{}m {}s", s / 60, s % 60),
        s => format!("{s}s"),
    };
    let left = if done == 0 || done >= total {
        String::new()
    } else {
        let per_step = elapsed.as_secs_f64() / done as f64;
        format!(
            ", about {} left",
            clock((per_step * (total - done) as f64) as u64)
        )
    };
    format!(
        "experiment: {done}/{total} steps, {}{left}",
        clock(elapsed.as_secs())
    )
}

/// Writes one file of shell command lines per phase into `dir`
/// (`phase-1.sh`, …); the phases must be executed in order, the lines of a
/// phase in any order and anywhere that sees the study's work directory.
pub fn write_plan(study: &Study, dir: &std::path::Path) -> anyhow::Result<Vec<PathBuf>> {
    let weft = std::env::current_exe().context("cannot locate the weft executable")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut files = Vec::new();
    for (i, phase) in phases(study).iter().enumerate() {
        let lines: String = phase
            .iter()
            .map(|job| {
                format!(
                    "{} experiment --step {} {}\n",
                    quote(&weft.display().to_string()),
                    quote(&job.id(study)),
                    quote(&study.file.display().to_string())
                )
            })
            .collect();
        let path = dir.join(format!("phase-{}.sh", i + 1));
        std::fs::write(&path, lines).with_context(|| format!("cannot write {}", path.display()))?;
        files.push(path);
    }
    Ok(files)
}

/// Executes one step named by its id (a line of a plan).
pub fn run_step(study: &Study, id: &str) -> anyhow::Result<()> {
    let ctx = Ctx::new(study)?;
    ctx.execute(Job::parse(study, id)?)
}

/// Collects the results of a plan executed elsewhere.
pub fn collect_only(study: &Study) -> anyhow::Result<Results> {
    collect(&Ctx::new(study)?)
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::progress_line;
    use std::time::Duration;

    #[test]
    fn plain_progress_says_what_is_done_and_what_is_left() {
        assert_eq!(
            progress_line(1200, 4770, Duration::from_secs(190)),
            "experiment: 1200/4770 steps, 3m 10s, about 9m 25s left"
        );
        assert_eq!(
            progress_line(10, 10, Duration::from_secs(4000)),
            "experiment: 10/10 steps, 1h 6m"
        );
    }
}
