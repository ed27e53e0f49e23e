//! Progress of long work on stderr: a bar on a terminal, otherwise (a log,
//! a batch job) a plain line every [`PLAIN_EVERY`] at most, saying what is
//! being done and the time left, so that a long study or triage is never
//! silent. Studies, triage and `weft nonterm check` use it.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often plain progress lines are printed at most.
pub const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// Counts finished units of work and shows it.
pub struct Progress {
    /// What the lines begin with (`experiment (phase 4 of 5, builds)`,
    /// `triage`).
    label: String,
    /// What is counted (`steps`, `runs`).
    unit: &'static str,
    total: usize,
    done: AtomicUsize,
    start: Instant,
    /// When the last plain line was printed and what is being done now;
    /// `None` on a terminal.
    last_line: Option<Mutex<(Instant, String)>>,
    bar: ProgressBar,
}

impl Progress {
    /// Progress over `total` units, shown as fits stderr.
    pub fn new(label: impl Into<String>, unit: &'static str, total: usize) -> Progress {
        let start = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            ProgressBar::new(total as u64)
        } else {
            ProgressBar::hidden()
        };
        let template =
            format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}}, about {{eta}} left {{wide_msg}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        Progress {
            label: label.into(),
            unit,
            total,
            done: AtomicUsize::new(0),
            start,
            last_line: (!terminal).then(|| Mutex::new((start, String::new()))),
            bar,
        }
    }

    /// Shows what is being done now.
    pub fn message(&self, what: String) {
        match &self.last_line {
            Some(last) => last.lock().unwrap_or_else(|e| e.into_inner()).1 = what,
            None => self.bar.set_message(what),
        }
    }

    /// Counts one finished unit.
    pub fn step(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.inc(1);
        let Some(last) = &self.last_line else { return };
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.0.elapsed() >= PLAIN_EVERY || done == self.total {
            last.0 = Instant::now();
            let doing = if done == self.total { "" } else { &last.1 };
            eprintln!("{}", self.line(done, self.start.elapsed(), doing));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// `triage: 120/700 runs, 35s, about 2m 49s left (DOING)`.
    fn line(&self, done: usize, elapsed: Duration, doing: &str) -> String {
        let clock = |secs: u64| match secs {
            s if s >= 3600 => format!("{}h {}m", s / 3600, s % 3600 / 60),
            s if s >= 60 => format!("{}m {}s", s / 60, s % 60),
            s => format!("{s}s"),
        };
        let left = if done == 0 || done >= self.total {
            String::new()
        } else {
            let per_unit = elapsed.as_secs_f64() / done as f64;
            format!(
                ", about {} left",
                clock((per_unit * (self.total - done) as f64) as u64)
            )
        };
        let (label, unit, total) = (&self.label, self.unit, self.total);
        let doing = if doing.is_empty() {
            String::new()
        } else {
            format!(" ({doing})")
        };
        format!(
            "{label}: {done}/{total} {unit}, {}{left}{doing}",
            clock(elapsed.as_secs())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_what_is_done_and_what_is_left() {
        let study = Progress::new("experiment (phase 5 of 5, runs)", "steps", 4770);
        assert_eq!(
            study.line(1200, Duration::from_secs(190), "run/ASCV3/v3/t12"),
            "experiment (phase 5 of 5, runs): 1200/4770 steps, 3m 10s, about 9m 25s left (run/ASCV3/v3/t12)"
        );
        let triage = Progress::new("triage", "runs", 7);
        assert_eq!(
            triage.line(7, Duration::from_secs(3700), ""),
            "triage: 7/7 runs, 1h 1m"
        );
        assert_eq!(triage.line(0, Duration::ZERO, ""), "triage: 0/7 runs, 0s");
    }
}
