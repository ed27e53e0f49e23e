//! Scratch directories for runs: one per worker thread, emptied before
//! each run and reused, instead of a directory tree per run. They live in
//! a directory of their own under the work directory, unique to this
//! process (so that `--step` processes sharing a work directory never
//! meet: a study's `--step` workers), removed when the execution ends, on an error, and on a signal
//! (SIGINT, SIGTERM, SIGHUP: see `weft_interrupt`). One left by a process
//! killed outright (SIGKILL, a crash) is removed at the next start: the
//! owner of a scratch area holds a lock on its `lock` file while it lives,
//! so an area whose lock can be taken is stale.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

/// What scratch areas' names begin with in the work directory.
const PREFIX: &str = "scratch-";
/// The file whose lock the owner of a scratch area holds.
const LOCK: &str = "lock";
/// How old an area without a lock file must be to be stale: a live one
/// gets its lock file right after the area is created.
const UNLOCKED_GRACE: Duration = Duration::from_secs(60);

/// The scratch directories of one execution.
pub struct Scratch {
    // Fields drop in order: the registration for removal on a signal
    // ends before the area is removed, and the lock after.
    _removed: weft_interrupt::RemovedOnSignal,
    root: tempfile::TempDir,
    _lock: File,
}

/// One run's directories: its working directory and its record directory
/// (`$WEFT_OUT`, created by the runtime only when a monitored unit loads).
pub struct RunDirs {
    pub cwd: PathBuf,
    pub out: PathBuf,
}

impl Scratch {
    /// A new scratch area under `work_dir`, once the stale areas of
    /// processes killed outright are removed. `command` names the command
    /// in the message of a signal that stops it (`weft experiment`).
    pub fn new(work_dir: &Path, command: &'static str) -> anyhow::Result<Scratch> {
        weft_interrupt::guard(command);
        remove_stale(work_dir)?;
        let fail = || format!("cannot create a scratch directory in {}", work_dir.display());
        let root = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir_in(work_dir)
            .with_context(fail)?;
        let _removed = weft_interrupt::RemovedOnSignal::new(root.path().to_path_buf());
        let _lock = File::create(root.path().join(LOCK)).with_context(fail)?;
        if !try_lock(&_lock) {
            anyhow::bail!("cannot lock {}", root.path().join(LOCK).display());
        }
        Ok(Scratch {
            _removed,
            root,
            _lock,
        })
    }

    /// The calling worker's directories, emptied: an empty `cwd` and no
    /// `out`.
    pub fn for_run(&self) -> anyhow::Result<RunDirs> {
        let worker = rayon::current_thread_index().unwrap_or(0);
        let base = self.root.path().join(worker.to_string());
        let dirs = RunDirs {
            cwd: base.join("cwd"),
            out: base.join("out"),
        };
        empty(&dirs.cwd)?;
        dirs.clean_out()?;
        Ok(dirs)
    }
}

impl RunDirs {
    /// Removes what the run recorded (once kept elsewhere).
    pub fn clean_out(&self) -> anyhow::Result<()> {
        match std::fs::remove_dir_all(&self.out) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("cannot clear {}", self.out.display()))
            }
            _ => Ok(()),
        }
    }
}

/// Removes the scratch areas in `work_dir` that no live process owns.
fn remove_stale(work_dir: &Path) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(work_dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let ours = entry.file_name().to_str().is_some_and(|n| n.starts_with(PREFIX));
        if ours && entry.file_type().is_ok_and(|t| t.is_dir()) && stale(&path) {
            std::fs::remove_dir_all(&path)
                .with_context(|| format!("cannot remove the stale scratch area {}", path.display()))?;
        }
    }
    Ok(())
}

/// Whether the scratch area `dir` is no live process's: its lock can be
/// taken, or it has no lock file and is older than a live one can be so.
fn stale(dir: &Path) -> bool {
    match File::open(dir.join(LOCK)) {
        Ok(file) => try_lock(&file),
        Err(_) => std::fs::metadata(dir)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > UNLOCKED_GRACE)),
    }
}

/// Takes an exclusive lock on `file` without waiting, held until the file
/// is closed (by any process that opened it, which is why a probe's file
/// is closed at once).
fn try_lock(file: &File) -> bool {
    // SAFETY: flock on a file descriptor that `file` keeps open.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Empties `dir`, creating it if needed; an empty directory (the common
/// case: most tests write nothing) costs one read.
fn empty(dir: &Path) -> anyhow::Result<()> {
    let fail = || format!("cannot clear {}", dir.display());
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(_) => return std::fs::create_dir_all(dir).with_context(fail),
    };
    for entry in entries {
        let entry = entry.with_context(fail)?;
        if entry.file_type().with_context(fail)?.is_dir() {
            std::fs::remove_dir_all(entry.path()).with_context(fail)?;
        } else {
            std::fs::remove_file(entry.path()).with_context(fail)?;
        }
    }
    Ok(())
}
