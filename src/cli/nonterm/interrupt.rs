//! What `weft nonterm check` does when it is interrupted (SIGINT, SIGTERM,
//! SIGHUP): its children (the weave, the compiler, the woven program, each
//! run in its own process group) are killed, its scratch directory is
//! removed, and it exits with 128 + the signal, as a shell reports it.
//! Nothing of a `--keep` directory is removed: the user asked for it.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The signal received, 0 while none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);
/// The scratch directory to remove on a signal.
static SCRATCH: Mutex<Option<PathBuf>> = Mutex::new(None);

extern "C" fn note(signal: libc::c_int) {
    // Only an atomic store: anything more is not async-signal-safe.
    RECEIVED.store(signal, Ordering::SeqCst);
}

/// Installs the handlers and the thread that cleans up after a signal;
/// `scratch`, if any, is removed then.
pub fn guard(scratch: Option<PathBuf>) {
    *SCRATCH.lock().unwrap_or_else(|e| e.into_inner()) = scratch;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: `note` only stores into an atomic.
        unsafe { libc::signal(signal, note as extern "C" fn(libc::c_int) as libc::sighandler_t) };
    }
    std::thread::spawn(|| {
        loop {
            let signal = RECEIVED.load(Ordering::SeqCst);
            if signal != 0 {
                kill_children();
                if let Some(dir) = SCRATCH.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    let _ = std::fs::remove_dir_all(dir);
                }
                eprintln!("weft nonterm check: stopped by signal {signal}; children killed");
                std::process::exit(128 + signal);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
}

/// Waits for the cleanup thread when a signal came: the runs it killed
/// must not make `check` end as if they had ended by themselves.
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
