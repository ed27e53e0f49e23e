//! Content hashes that key finished builds and runs, and the counters that
//! tell how much a study redid.
//!
//! A build or run directory holds a `key` file written last, once the step
//! has succeeded; the step is redone only when its inputs hash differently.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use serde::Serialize;
use sha2::{Digest, Sha256};
use weft_run::hex;

/// Accumulates the inputs of one step.
#[derive(Clone, Default)]
pub struct KeyHasher(Sha256);

impl KeyHasher {
    pub fn new(kind: &str) -> KeyHasher {
        let mut h = KeyHasher::default();
        h.str(kind);
        h
    }

    /// Adds a length-prefixed string (so that "ab","c" differs from "a","bc").
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.update((b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }

    /// Adds a file's or directory tree's content (names, modes and bytes);
    /// a missing path hashes as such.
    pub fn path(&mut self, p: &Path) -> anyhow::Result<&mut Self> {
        if !p.exists() {
            self.str("<missing>");
            return Ok(self);
        }
        let mut entries: Vec<_> = walkdir::WalkDir::new(p)
            .sort_by_file_name()
            .into_iter()
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot walk {}", p.display()))?;
        entries.retain(|e| !e.file_type().is_dir());
        for e in entries {
            let rel = e.path().strip_prefix(p).unwrap_or(e.path());
            self.str(&rel.to_string_lossy());
            if e.file_type().is_symlink() {
                let target = std::fs::read_link(e.path())?;
                self.str(&format!("-> {}", target.display()));
                continue;
            }
            let mut f = std::fs::File::open(e.path())
                .with_context(|| format!("cannot read {}", e.path().display()))?;
            let len = f.metadata()?.len();
            self.0.update(len.to_le_bytes());
            let mut buf = vec![0u8; 1 << 16];
            loop {
                let n = f.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                self.0.update(&buf[..n]);
            }
        }
        Ok(self)
    }

    /// The hex digest.
    pub fn finish(&self) -> String {
        hex(&self.0.clone().finalize())
    }
}

/// Whether the step in `dir` finished with exactly this key.
pub fn is_fresh(dir: &Path, key: &str) -> bool {
    std::fs::read_to_string(dir.join("key")).is_ok_and(|k| k == key)
}

/// Marks the step in `dir` as finished with `key`.
pub fn mark_fresh(dir: &Path, key: &str) -> anyhow::Result<()> {
    std::fs::write(dir.join("key"), key)
        .with_context(|| format!("cannot write {}", dir.join("key").display()))
}

/// How many builds, runs and report files were done or reused.
#[derive(Debug, Default)]
pub struct Counters {
    pub built: AtomicUsize,
    pub builds_reused: AtomicUsize,
    pub ran: AtomicUsize,
    pub runs_reused: AtomicUsize,
    pub reports_made: AtomicUsize,
    pub reports_reused: AtomicUsize,
}

/// A snapshot of the cache's counters: how many builds, runs and report files were done or reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    pub built: usize,
    pub builds_reused: usize,
    pub ran: usize,
    pub runs_reused: usize,
    pub reports_made: usize,
    pub reports_reused: usize,
}

impl Counters {
    pub fn count(counter: &AtomicUsize) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> CacheStats {
        CacheStats {
            built: self.built.load(Ordering::Relaxed),
            builds_reused: self.builds_reused.load(Ordering::Relaxed),
            ran: self.ran.load(Ordering::Relaxed),
            runs_reused: self.runs_reused.load(Ordering::Relaxed),
            reports_made: self.reports_made.load(Ordering::Relaxed),
            reports_reused: self.reports_reused.load(Ordering::Relaxed),
        }
    }
}
