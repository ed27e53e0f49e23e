//! Running one test command under limits: its own process group, a
//! timeout and an output cap. A crash, a hang or a flood of output is a
//! result (a failing run), never an error of the study.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::command_line::direct_argv;
use crate::digest::hash_bytes;

/// Changes whenever what a run records changes (as when `$WEFT_BUILD`
/// began to be replaced in its output), so that cached runs are redone.
pub const RECORD_VERSION: &str = "2";

/// Why a run is a failure whatever its outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Abnormal {
    /// Killed after the timeout (with its whole process group).
    Timeout,
    /// Wrote more than the cap to stdout, stderr or a named output.
    OutputCap,
    /// Ended by a signal, or the shell reported one (exit status 129..=159).
    Crash,
    /// Could not be started.
    Spawn,
}

/// The recorded result of one run: what the oracle compares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Exit status, or 128 + signal number.
    pub status: i32,
    pub abnormal: Option<Abnormal>,
    pub stdout: String,
    pub stderr: String,
    /// Hash of each named output file; `None` when the test did not write it.
    pub outputs: BTreeMap<String, Option<String>>,
    pub millis: u64,
}

/// What one run gave: its record and its (capped) stdout and stderr.
pub struct Execution {
    pub record: RunRecord,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Execution {
    /// Saves stdout and stderr as files `stdout` and `stderr` in `dir`,
    /// each unless empty (most runs write little; every file costs).
    pub fn save_texts(&self, dir: &Path) -> anyhow::Result<()> {
        for (name, text) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            if !text.is_empty() {
                let path = dir.join(name);
                std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        Ok(())
    }
}

/// Runs `cmd` in `cwd` and records the result: executed directly when it
/// has no shell syntax ([`direct_argv`]), else with `sh -c`.
///
/// Every occurrence of the value of `WEFT_BUILD` (from `env`) in stdout and
/// stderr is replaced by the literal `$WEFT_BUILD` first: each version is
/// built in its own directory, and a program printing its own path (as
/// getopt does in `prog: unrecognized option`) must not fail the oracle
/// for that.
pub fn execute(
    cmd: &str,
    cwd: &Path,
    env: &BTreeMap<String, String>,
    stdin: Option<&Path>,
    outputs: &[String],
    timeout: Duration,
    cap: u64,
) -> anyhow::Result<Execution> {
    let start = Instant::now();
    let mut child = match spawn(cmd, cwd, env, stdin)? {
        Ok(c) => c,
        Err(e) => {
            let record = RunRecord {
                status: -1,
                abnormal: Some(Abnormal::Spawn),
                stdout: String::new(),
                stderr: hash_bytes(e.to_string().as_bytes()),
                outputs: BTreeMap::new(),
                millis: 0,
            };
            return Ok(Execution {
                record,
                stdout: Vec::new(),
                stderr: Vec::new(),
            });
        }
    };
    let pgid = child.id() as libc::pid_t;
    let overflow = Arc::new(AtomicBool::new(false));
    let readers = [
        child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>),
        child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>),
    ]
    .map(|pipe| {
        let overflow = overflow.clone();
        std::thread::spawn(move || {
            pipe.map(|p| read_capped(p, cap, pgid, &overflow))
                .unwrap_or_default()
        })
    });

    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let (status, timed_out) = match rx.recv_timeout(timeout) {
        Ok(s) => (s, false),
        Err(_) => {
            kill_group(pgid);
            (rx.recv().context("lost the test's waiter")?, true)
        }
    };
    // Background children left by the test would keep the pipes open.
    kill_group(pgid);
    let status = status.context("cannot wait for the test")?;
    let [out, err] = readers.map(|r| {
        let text = r.join().unwrap_or_default();
        match env.get("WEFT_BUILD") {
            Some(build) if !build.is_empty() => replace_all(&text, build.as_bytes(), b"$WEFT_BUILD"),
            _ => text,
        }
    });
    let mut abnormal = None;
    let mut hashes = BTreeMap::new();
    for name in outputs {
        let path = cwd.join(name);
        let hash = match std::fs::metadata(&path) {
            Ok(m) if m.len() > cap => {
                abnormal = Some(Abnormal::OutputCap);
                None
            }
            Ok(_) => Some(hash_bytes(&std::fs::read(&path)?)),
            Err(_) => None,
        };
        hashes.insert(name.clone(), hash);
    }
    let code = status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
    if overflow.load(Ordering::Relaxed) {
        abnormal = Some(Abnormal::OutputCap);
    } else if timed_out {
        abnormal = Some(Abnormal::Timeout);
    } else if abnormal.is_none() && (status.signal().is_some() || (129..=159).contains(&code)) {
        abnormal = Some(Abnormal::Crash);
    }
    let record = RunRecord {
        status: code,
        abnormal,
        stdout: hash_bytes(&out),
        stderr: hash_bytes(&err),
        outputs: hashes,
        millis: start.elapsed().as_millis() as u64,
    };
    Ok(Execution {
        record,
        stdout: out,
        stderr: err,
    })
}

/// Starts the test in its own process group: directly when the command
/// allows, else (or when its program cannot be started directly, which the
/// shell reports as a failing command, not a spawn error) with `sh -c`.
/// The inner result is the spawn's own failure, a result of the run.
fn spawn(
    cmd: &str,
    cwd: &Path,
    env: &BTreeMap<String, String>,
    stdin: Option<&Path>,
) -> anyhow::Result<std::io::Result<Child>> {
    let start = |program: &str, args: &[&str]| -> anyhow::Result<std::io::Result<Child>> {
        let stdin = match stdin {
            Some(p) => Stdio::from(
                std::fs::File::open(p).with_context(|| format!("cannot open stdin {}", p.display()))?,
            ),
            None => Stdio::null(),
        };
        Ok(Command::new(program)
            .args(args)
            .current_dir(cwd)
            .envs(env)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn())
    };
    if let Some(argv) = direct_argv(cmd, env) {
        let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
        if let Ok(child) = start(&argv[0], &args)? {
            return Ok(Ok(child));
        }
    }
    start("sh", &["-c", cmd])
}

/// `hay` with every non-overlapping `needle` (non-empty) replaced by `with`.
fn replace_all(hay: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut rest = hay;
    while let Some(i) = rest.windows(needle.len()).position(|w| w == needle) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(with);
        rest = &rest[i + needle.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// Reads a pipe to its end, keeping at most `cap` bytes; past the cap the
/// process group is killed and the rest drained.
fn read_capped(mut pipe: impl Read, cap: u64, pgid: libc::pid_t, overflow: &AtomicBool) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 1 << 15];
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let room = cap.saturating_sub(kept.len() as u64) as usize;
        kept.extend_from_slice(&buf[..n.min(room)]);
        if n > room && !overflow.swap(true, Ordering::Relaxed) {
            kill_group(pgid);
        }
    }
    kept
}

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: killpg has no memory effects; the group is the test's own.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}
