//! Scratch directories for runs: one per worker thread, emptied before
//! each run and reused, instead of a directory tree per run. They live in
//! a directory of their own under the work directory, unique to this
//! process (so that `--step` processes sharing a work directory never
//! meet), removed when the execution ends.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// The scratch directories of one execution.
pub struct Scratch {
    root: tempfile::TempDir,
}

/// One run's directories: its working directory and its record directory
/// (`$WEFT_OUT`, created by the runtime only when a monitored unit loads).
pub struct RunDirs {
    pub cwd: PathBuf,
    pub out: PathBuf,
}

impl Scratch {
    /// A new scratch area under `work_dir`.
    pub fn new(work_dir: &Path) -> anyhow::Result<Scratch> {
        let root = tempfile::Builder::new()
            .prefix("scratch-")
            .tempdir_in(work_dir)
            .with_context(|| format!("cannot create a scratch directory in {}", work_dir.display()))?;
        Ok(Scratch { root })
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

    /// A directory for unpacked traces, removed with the scratch area.
    pub fn traces(&self) -> PathBuf {
        self.root.path().join("traces")
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
