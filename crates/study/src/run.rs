//! Running one test command under limits: its own process group, a
//! timeout and an output cap. A crash, a hang or a flood of output is a
//! result (a failing run), never an error of the study.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::cache::hash_bytes;

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

/// Runs `sh -c cmd` in `cwd` and records the result; `stdout` and `stderr`
/// (each truncated to the cap) are also saved beside `cwd` unless empty
/// (most runs of a suite write little; every file created costs).
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
) -> anyhow::Result<RunRecord> {
    let start = Instant::now();
    let stdin = match stdin {
        Some(p) => {
            Stdio::from(std::fs::File::open(p).with_context(|| format!("cannot open stdin {}", p.display()))?)
        }
        None => Stdio::null(),
    };
    let spawned = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(cwd)
        .envs(env)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            return Ok(RunRecord {
                status: -1,
                abnormal: Some(Abnormal::Spawn),
                stdout: String::new(),
                stderr: hash_bytes(e.to_string().as_bytes()),
                outputs: BTreeMap::new(),
                millis: 0,
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
    let parent = cwd.parent().unwrap_or(cwd);
    for (name, text) in [("stdout", &out), ("stderr", &err)] {
        if !text.is_empty() {
            std::fs::write(parent.join(name), text)?;
        }
    }

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
    Ok(RunRecord {
        status: code,
        abnormal,
        stdout: hash_bytes(&out),
        stderr: hash_bytes(&err),
        outputs: hashes,
        millis: start.elapsed().as_millis() as u64,
    })
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
