//! What a weft command does when it is interrupted (SIGINT, SIGTERM,
//! SIGHUP): its children (compilers, weaves, the programs it runs, each
//! run in its own process group) are killed, the scratch directories it
//! registered are removed, and it exits with 128 + the signal, as a shell
//! reports it. Only what a command registered is removed: a directory the
//! user asked to keep is never registered.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

/// The signal received, 0 while none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);
/// The scratch directories to remove on a signal.
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// The handlers are installed once per process.
static INSTALLED: Once = Once::new();

extern "C" fn note(signal: libc::c_int) {
    // Only an atomic store: anything more is not async-signal-safe.
    RECEIVED.store(signal, Ordering::SeqCst);
}

/// Installs the handlers and the thread that cleans up after a signal
/// (once; later calls do nothing). `command` names the command in the
/// line printed then.
pub fn guard(command: &'static str) {
    INSTALLED.call_once(|| {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: `note` only stores into an atomic.
            unsafe { libc::signal(signal, note as extern "C" fn(libc::c_int) as libc::sighandler_t) };
        }
        std::thread::spawn(move || {
            loop {
                let signal = RECEIVED.load(Ordering::SeqCst);
                if signal != 0 {
                    kill_children();
                    for dir in std::mem::take(&mut *scratch()) {
                        remove(&dir);
                    }
                    eprintln!("{command}: stopped by signal {signal}; children killed, scratch removed");
                    std::process::exit(128 + signal);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
    });
}

fn scratch() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    SCRATCH.lock().unwrap_or_else(|e| e.into_inner())
}

/// A scratch directory removed on a signal while this value lives (its
/// owner removes it otherwise, e.g. a `tempfile::TempDir` dropped).
pub struct RemovedOnSignal {
    dir: PathBuf,
}

impl RemovedOnSignal {
    /// Registers `dir` for removal on a signal.
    pub fn new(dir: PathBuf) -> RemovedOnSignal {
        scratch().push(dir.clone());
        RemovedOnSignal { dir }
    }
}

impl Drop for RemovedOnSignal {
    fn drop(&mut self) {
        let mut dirs = scratch();
        if let Some(at) = dirs.iter().position(|d| *d == self.dir) {
            dirs.swap_remove(at);
        }
    }
}

/// Removes `dir`, again if the command's threads, still running, wrote
/// into it meanwhile (a thread creating its next file may make the
/// directory anew just after a removal): done once it has stayed away for
/// two looks 20 ms apart.
fn remove(dir: &std::path::Path) {
    let mut absent = 0;
    for _ in 0..50 {
        if dir.exists() {
            absent = 0;
            let _ = std::fs::remove_dir_all(dir);
        } else {
            absent += 1;
            if absent == 2 {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for the cleanup thread when a signal came: the runs it killed
/// must not make the command end as if they had ended by themselves.
pub fn settle() {
    while RECEIVED.load(Ordering::SeqCst) != 0 {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills every descendant of this process (the compiler's own children
/// too), and the process group of each that leads one (the runs), so that
/// nothing `check` started outlives it.
fn kill_children() {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let table = processes();
    let mut ours = vec![me];
    let mut i = 0;
    while i < ours.len() {
        let parent = ours[i];
        ours.extend(table.iter().filter(|p| p.1 == parent).map(|p| p.0));
        i += 1;
    }
    for &(pid, _, pgrp) in table.iter().filter(|p| p.0 != me && ours.contains(&p.0)) {
        // SAFETY: kill with a pid read from /proc; at worst it fails.
        unsafe {
            if pgrp == pid {
                libc::kill(-pid, libc::SIGKILL);
            }
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Every process as (pid, parent, process group), from /proc.
fn processes() -> Vec<(libc::pid_t, libc::pid_t, libc::pid_t)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command's closing parenthesis: state ppid pgrp.
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if let (Some(Ok(ppid)), Some(Ok(pgrp))) =
            (fields.get(1).map(|f| f.parse()), fields.get(2).map(|f| f.parse()))
        {
            out.push((pid, ppid, pgrp));
        }
    }
    out
}
