//! Progress of the runs on stderr: a bar on a terminal, otherwise (a log,
//! a batch job) a plain line every [`PLAIN_EVERY`] at most, so a long
//! triage is never silent.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often plain progress lines are printed at most.
pub const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// Counts finished runs and shows it.
pub struct Progress {
    total: usize,
    done: AtomicUsize,
    start: Instant,
    /// When the last plain line was printed; `None` on a terminal.
    last_line: Option<Mutex<Instant>>,
    bar: ProgressBar,
}

impl Progress {
    /// Progress over `total` runs, shown as fits stderr.
    pub fn new(total: usize) -> Progress {
        let start = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            ProgressBar::new(total as u64)
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed}, about {eta} left")
        {
            bar.set_style(style);
        }
        Progress {
            total,
            done: AtomicUsize::new(0),
            start,
            last_line: (!terminal).then(|| Mutex::new(start)),
            bar,
        }
    }

    /// Counts one finished run.
    pub fn step(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.inc(1);
        let Some(last) = &self.last_line else { return };
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= PLAIN_EVERY || done == self.total {
            *last = Instant::now();
            eprintln!("{}", line(done, self.total, self.start.elapsed()));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `triage: 120/700 runs, 35s, about 2m 49s left`.
fn line(done: usize, total: usize, elapsed: Duration) -> String {
    let clock = |secs: u64| match secs {
        s if s >= 3600 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        s if s >= 60 => format!("{}m {}s", s / 60, s % 60),
        s => format!("{s}s"),
    };
    let left = if done == 0 || done >= total {
        String::new()
    } else {
        let per_run = elapsed.as_secs_f64() / done as f64;
        format!(", about {} left", clock((per_run * (total - done) as f64) as u64))
    };
    format!("triage: {done}/{total} runs, {}{left}", clock(elapsed.as_secs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_what_is_done_and_what_is_left() {
        assert_eq!(
            line(120, 700, Duration::from_secs(35)),
            "triage: 120/700 runs, 35s, about 2m 49s left"
        );
        assert_eq!(line(7, 7, Duration::from_secs(3700)), "triage: 7/7 runs, 1h 1m");
    }
}
