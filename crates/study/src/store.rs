//! The study database: one SQLite file per study (`WORK/study.sqlite`)
//! holding every finished run of the plain and monitored builds: its key,
//! status, output digests and what its monitor recorded, with
//! outputs and records as content-addressed blobs, each stored once however
//! many runs produced it. A run is named by its arm, version and test,
//! each stored once in a table of names and referred to by number (a
//! study has about 200,000 runs and a hundred names), and keyed by the
//! first [`KEY_BYTES`] bytes of its SHA-256 key. Where each run's time
//! went is kept only when [`TIMINGS_VARIABLE`] is set (a benchmark's
//! question, over a quarter of each row otherwise).
//!
//! Writes are batched: a transaction is committed every second or so, so
//! an interrupted study loses at most its last second of runs and resumes
//! from the rest. A file that is not a database of this format (foreign,
//! damaged, from another format version) is never written to: opening it
//! fails with [`Unusable`].
//!
//! `--plan` steps each write a shard (`WORK/shards/*.sqlite`, one writer
//! each) that [`Store::merge_shards`] folds into the study's database:
//! SQLite must not have concurrent writers on a network file system.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use sha2::{Digest, Sha256};

use weft_run::RunRecord;
use weft_run::hex;

/// `PRAGMA application_id` of a study database ("weft").
pub const APPLICATION_ID: i32 = 0x7765_6674;
/// `PRAGMA user_version`: the layout below. Format 3 named each run by
/// text and kept 32 bytes of its key; it is refused (its runs are redone
/// in a new database), never misread.
pub const FORMAT_VERSION: i32 = 4;
/// How much of a run's key is kept: 128 bits tell a stale run from a fresh
/// one as surely as 256.
pub const KEY_BYTES: usize = 16;
/// The environment variable that, set to anything but `0`, keeps each
/// run's [`Timings`] and the time it finished in the `timings` table.
pub const TIMINGS_VARIABLE: &str = "WEFT_STUDY_TIMINGS";
/// How long results may wait in an open transaction.
const COMMIT_EVERY: Duration = Duration::from_secs(1);

const SCHEMA: &str = "
CREATE TABLE blobs(id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, data BLOB NOT NULL);
CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE runs(
    arm INTEGER NOT NULL, version INTEGER NOT NULL, test INTEGER NOT NULL,
    key BLOB NOT NULL,
    status INTEGER NOT NULL, abnormal TEXT,
    stdout INTEGER NOT NULL, stderr INTEGER NOT NULL, outputs TEXT,
    layout INTEGER, records INTEGER,
    millis INTEGER NOT NULL,
    PRIMARY KEY(arm, version, test)
) WITHOUT ROWID;
CREATE TABLE timings(
    arm INTEGER NOT NULL, version INTEGER NOT NULL, test INTEGER NOT NULL,
    finished_ns INTEGER NOT NULL,
    prepare_us INTEGER NOT NULL, exec_us INTEGER NOT NULL, keep_us INTEGER NOT NULL,
    PRIMARY KEY(arm, version, test)
) WITHOUT ROWID;
";

/// Which run: names, so that a study file that adds or reorders versions
/// or tests keeps its finished runs.
#[derive(Debug, Clone, Copy)]
pub struct RunId<'a> {
    pub arm: &'a str,
    pub version: &'a str,
    pub test: &'a str,
}

/// What a run's monitor left, as blobs (see [`super::run_records`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Kept {
    /// What the runs of one build share: the range variables' keys, or
    /// the learned sets an invariant arm's runs were checked against.
    pub layout: Option<Vec<u8>>,
    /// The range values, or the packed trace files.
    pub records: Option<Vec<u8>>,
}

/// Where a run's time went, in microseconds: preparing its directory and
/// key, the test command itself, and reading and keeping its results.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    pub prepare_us: u64,
    pub exec_us: u64,
    pub keep_us: u64,
}

/// A finished run, as stored.
pub struct Finished<'a> {
    pub key: &'a str,
    pub record: &'a RunRecord,
    pub stdout: &'a [u8],
    pub stderr: &'a [u8],
    pub kept: Kept,
    pub timings: Timings,
}

/// A stored run looked up by its key.
pub enum Stored {
    Missing,
    /// Stored under another key: its build, test or inputs changed since.
    Stale,
    Fresh(RunRecord, Kept),
}

/// A database file weft will not use: not SQLite, damaged, of another
/// application or format version. The file is left untouched.
#[derive(Debug)]
pub struct Unusable {
    pub path: PathBuf,
    pub reason: String,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}; the file is left as it is: move it away to start a new study database (the runs are then redone)",
            self.path.display(),
            self.reason
        )
    }
}

impl std::error::Error for Unusable {}

struct Inner {
    conn: Connection,
    /// When the open transaction began, if one is open.
    since: Option<Instant>,
    /// Blob ids by digest, for blobs this process stored or met.
    known: HashMap<[u8; 32], i64>,
    /// Name ids by name, for names this process stored or met.
    names: HashMap<String, i64>,
    /// Whether the study's database is attached as `base` (to a shard).
    base: bool,
    /// Whether runs' timings are kept ([`TIMINGS_VARIABLE`]).
    timings: bool,
}

/// An open study database (or shard).
pub struct Store {
    inner: Mutex<Inner>,
    pub path: PathBuf,
}

impl Store {
    /// Opens the study database at `path`, creating it if missing.
    pub fn open(path: &Path) -> anyhow::Result<Store> {
        let conn = connect(path)?;
        Ok(Store {
            inner: Mutex::new(Inner {
                conn,
                since: None,
                known: HashMap::new(),
                names: HashMap::new(),
                base: false,
                timings: std::env::var_os(TIMINGS_VARIABLE).is_some_and(|v| v != "0"),
            }),
            path: path.to_path_buf(),
        })
    }

    /// Opens (or creates) the shard at `path`; runs already finished in the
    /// study database `base` (if it exists) count as fresh.
    pub fn open_shard(path: &Path, base: &Path) -> anyhow::Result<Store> {
        let store = Store::open(path)?;
        if base.exists() {
            drop(connect(base)?);
            let inner = store.lock();
            inner
                .conn
                .execute("ATTACH DATABASE ?1 AS base", [base.to_string_lossy()])
                .with_context(|| format!("cannot read {}", base.display()))?;
            drop(inner);
            store.lock().base = true;
        }
        Ok(store)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the run finished with exactly this key.
    pub fn is_fresh(&self, id: RunId, key: &str) -> anyhow::Result<bool> {
        let inner = self.lock();
        let key = key_bytes(key);
        let dbs: &[&str] = if inner.base { &["", "base."] } else { &[""] };
        for db in dbs {
            let sql = format!("SELECT key FROM {db}runs WHERE {}", by_names(db));
            let found: Option<Vec<u8>> = inner
                .conn
                .prepare_cached(&sql)?
                .query_row(params![id.arm, id.version, id.test], |r| r.get(0))
                .optional()?;
            if found.is_some_and(|k| k == key) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Stores a finished run (replacing an older result of it); committed
    /// within about a second.
    pub fn put(&self, id: RunId, run: &Finished) -> anyhow::Result<()> {
        let mut inner = self.lock();
        if inner.since.is_none() {
            inner.conn.execute_batch("BEGIN")?;
            inner.since = Some(Instant::now());
        }
        let stdout = inner.blob(run.stdout)?;
        let stderr = inner.blob(run.stderr)?;
        let layout = run.kept.layout.as_deref().map(|b| inner.blob(b)).transpose()?;
        let records = run.kept.records.as_deref().map(|b| inner.blob(b)).transpose()?;
        let r = run.record;
        let abnormal = r.abnormal.map(|a| serde_json::to_string(&a)).transpose()?;
        let outputs = (!r.outputs.is_empty())
            .then(|| serde_json::to_string(&r.outputs))
            .transpose()?;
        let (arm, version, test) = (inner.name(id.arm)?, inner.name(id.version)?, inner.name(id.test)?);
        inner
            .conn
            .prepare_cached(
                "INSERT OR REPLACE INTO runs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?
            .execute(params![
                arm,
                version,
                test,
                key_bytes(run.key),
                r.status,
                abnormal,
                stdout,
                stderr,
                outputs,
                layout,
                records,
                r.millis as i64,
            ])?;
        if inner.timings {
            let finished_ns = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as i64);
            let t = run.timings;
            inner
                .conn
                .prepare_cached("INSERT OR REPLACE INTO timings VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
                .execute(params![
                    arm,
                    version,
                    test,
                    finished_ns,
                    t.prepare_us as i64,
                    t.exec_us as i64,
                    t.keep_us as i64,
                ])?;
        }
        if inner.since.is_some_and(|s| s.elapsed() >= COMMIT_EVERY) {
            inner.commit()?;
        }
        Ok(())
    }

    /// The stored run, if there is one under `key`: a shard's own, or else
    /// the study database's (a `--step` worker reads the runs of earlier
    /// phases there).
    pub fn get(&self, id: RunId, key: &str) -> anyhow::Result<Stored> {
        let inner = self.lock();
        let mut row = inner.row(id, "")?;
        if row.is_none() && inner.base {
            row = inner.row(id, "base.")?;
        }
        drop(inner);
        let Some((stored, status, abnormal, stdout, stderr, outputs, millis, kept)) = row else {
            return Ok(Stored::Missing);
        };
        if stored != key_bytes(key) {
            return Ok(Stored::Stale);
        }
        let damaged = || {
            format!(
                "{}: run {}/{}/{} is damaged",
                self.path.display(),
                id.arm,
                id.version,
                id.test
            )
        };
        let record = RunRecord {
            status,
            abnormal: abnormal
                .map(|a| serde_json::from_str(&a))
                .transpose()
                .with_context(damaged)?,
            stdout: hex(&stdout.with_context(damaged)?),
            stderr: hex(&stderr.with_context(damaged)?),
            outputs: outputs
                .map(|o| serde_json::from_str(&o))
                .transpose()
                .with_context(damaged)?
                .unwrap_or_default(),
            millis: millis as u64,
        };
        Ok(Stored::Fresh(record, kept))
    }

    /// Commits what is pending.
    pub fn flush(&self) -> anyhow::Result<()> {
        self.lock().commit()
    }

    /// Folds every shard under `dir` into this database, oldest first (a
    /// run in several shards keeps its newest result), and removes the
    /// merged shards. Returns how many were merged.
    pub fn merge_shards(&self, dir: &Path) -> anyhow::Result<usize> {
        if !dir.is_dir() {
            return Ok(0);
        }
        let mut shards: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
        for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
            let path = entry?.path();
            if path.extension().is_some_and(|x| x == "sqlite") {
                shards.push((std::fs::metadata(&path)?.modified()?, path));
            }
        }
        shards.sort();
        self.flush()?;
        let progress = weft_run::Progress::new("experiment (merging shards)", "shards", shards.len());
        let mut inner = self.lock();
        for (_, shard) in &shards {
            progress.message(shard.display().to_string());
            drop(connect(shard)?);
            let conn = &inner.conn;
            conn.execute("ATTACH DATABASE ?1 AS shard", [shard.to_string_lossy()])?;
            let merged = conn.execute_batch(MERGE);
            conn.execute_batch("DETACH DATABASE shard")?;
            merged.with_context(|| format!("cannot merge {}", shard.display()))?;
            std::fs::remove_file(shard).with_context(|| format!("cannot remove {}", shard.display()))?;
            progress.step();
        }
        progress.finish();
        inner.known.clear();
        inner.names.clear();
        Ok(shards.len())
    }
}

/// Copies an attached `shard`'s names, blobs, runs and timings, mapping
/// name ids by name and blob ids by digest.
const MERGE: &str = "
BEGIN;
INSERT OR IGNORE INTO names(name) SELECT name FROM shard.names;
INSERT OR IGNORE INTO blobs(digest, data) SELECT digest, data FROM shard.blobs;
DROP TABLE IF EXISTS temp.named;
CREATE TEMP TABLE named(shard INTEGER PRIMARY KEY, base INTEGER NOT NULL);
INSERT INTO named SELECT s.id, m.id FROM names m JOIN shard.names s ON m.name = s.name;
INSERT OR REPLACE INTO runs
SELECT (SELECT base FROM named WHERE shard = r.arm),
    (SELECT base FROM named WHERE shard = r.version),
    (SELECT base FROM named WHERE shard = r.test),
    r.key, r.status, r.abnormal,
    (SELECT m.id FROM blobs m JOIN shard.blobs s ON m.digest = s.digest WHERE s.id = r.stdout),
    (SELECT m.id FROM blobs m JOIN shard.blobs s ON m.digest = s.digest WHERE s.id = r.stderr),
    r.outputs,
    (SELECT m.id FROM blobs m JOIN shard.blobs s ON m.digest = s.digest WHERE s.id = r.layout),
    (SELECT m.id FROM blobs m JOIN shard.blobs s ON m.digest = s.digest WHERE s.id = r.records),
    r.millis
FROM shard.runs r;
INSERT OR REPLACE INTO timings
SELECT (SELECT base FROM named WHERE shard = t.arm),
    (SELECT base FROM named WHERE shard = t.version),
    (SELECT base FROM named WHERE shard = t.test),
    t.finished_ns, t.prepare_us, t.exec_us, t.keep_us
FROM shard.timings t;
DROP TABLE temp.named;
COMMIT;
";

/// A stored run's columns, as [`Store::get`] reads them.
type Row = (
    Vec<u8>,
    i32,
    Option<String>,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<String>,
    i64,
    Kept,
);

impl Inner {
    /// The run `id` of the database `db` (`""`: this one, `"base."`: the
    /// attached study database).
    fn row(&self, id: RunId, db: &str) -> anyhow::Result<Option<Row>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT key, status, abnormal, (SELECT digest FROM {db}blobs WHERE id = stdout),
                    (SELECT digest FROM {db}blobs WHERE id = stderr), outputs, millis,
                    (SELECT data FROM {db}blobs WHERE id = layout), (SELECT data FROM {db}blobs WHERE id = records)
             FROM {db}runs WHERE {}",
            by_names(db)
        ))?;
        Ok(stmt
            .query_row(params![id.arm, id.version, id.test], |r| {
                Ok((
                    r.get::<_, Vec<u8>>(0)?,
                    r.get::<_, i32>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<Vec<u8>>>(3)?,
                    r.get::<_, Option<Vec<u8>>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, i64>(6)?,
                    Kept {
                        layout: r.get(7)?,
                        records: r.get(8)?,
                    },
                ))
            })
            .optional()?)
    }

    /// The id of `name`, stored if new.
    fn name(&mut self, name: &str) -> rusqlite::Result<i64> {
        if let Some(&id) = self.names.get(name) {
            return Ok(id);
        }
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO names(name) VALUES (?1)")?
            .execute([name])?;
        let id = self
            .conn
            .prepare_cached("SELECT id FROM names WHERE name = ?1")?
            .query_row([name], |r| r.get(0))?;
        self.names.insert(name.to_string(), id);
        Ok(id)
    }

    /// The id of the blob holding `data`, stored if new.
    fn blob(&mut self, data: &[u8]) -> rusqlite::Result<i64> {
        let digest: [u8; 32] = Sha256::digest(data).into();
        if let Some(&id) = self.known.get(&digest) {
            return Ok(id);
        }
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO blobs(digest, data) VALUES (?1, ?2)")?
            .execute(params![&digest[..], data])?;
        let id = self
            .conn
            .prepare_cached("SELECT id FROM blobs WHERE digest = ?1")?
            .query_row([&digest[..]], |r| r.get(0))?;
        self.known.insert(digest, id);
        Ok(id)
    }

    fn commit(&mut self) -> anyhow::Result<()> {
        if self.since.take().is_some() {
            self.conn.execute_batch("COMMIT")?;
        }
        Ok(())
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        // An error here loses at most the last second's runs, which the
        // next execution redoes.
        let _ = self.flush();
    }
}

/// Opens a database file, creating it (atomically, by renaming a finished
/// new file into place) when missing; an existing file must be a healthy
/// study database of this format.
fn connect(path: &Path) -> anyhow::Result<Connection> {
    if !path.exists() {
        create(path)?;
    }
    let unusable = |reason: String| Unusable {
        path: path.to_path_buf(),
        reason,
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn =
        Connection::open_with_flags(path, flags).map_err(|e| unusable(format!("cannot open it ({e})")))?;
    let header = |name: &str| -> Result<i32, Unusable> {
        conn.pragma_query_value(None, name, |r| r.get(0))
            .map_err(|e| unusable(format!("not a study database ({e})")))
    };
    if header("application_id")? != APPLICATION_ID {
        return Err(
            unusable("a SQLite database of another application, not a weft study database".into()).into(),
        );
    }
    let version = header("user_version")?;
    if version != FORMAT_VERSION {
        return Err(unusable(format!(
            "a study database of format {version}, this weft reads format {FORMAT_VERSION}"
        ))
        .into());
    }
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| unusable(format!("damaged ({e})")))?;
    if check != "ok" {
        return Err(unusable(format!("damaged ({check})")).into());
    }
    conn.busy_timeout(Duration::from_secs(30))?;
    conn.execute_batch("PRAGMA synchronous = NORMAL")?;
    Ok(conn)
}

fn create(path: &Path) -> anyhow::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let mut new = path.as_os_str().to_owned();
    new.push(".new");
    let new = PathBuf::from(new);
    if new.exists() {
        // Only this function writes that name: an earlier creation died.
        std::fs::remove_file(&new)?;
    }
    let conn = Connection::open(&new).with_context(|| format!("cannot create {}", new.display()))?;
    conn.execute_batch(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {FORMAT_VERSION}; BEGIN; {SCHEMA} COMMIT;"
    ))?;
    drop(conn);
    // A link, not a rename: never replaces a file that appeared meanwhile.
    let linked = std::fs::hard_link(&new, path);
    std::fs::remove_file(&new)?;
    linked.with_context(|| format!("cannot create {}", path.display()))
}

/// The SQL condition selecting the run named `?1` (arm), `?2` (version)
/// and `?3` (test) in the runs of the database `db`.
fn by_names(db: &str) -> String {
    let id = |p: &str| format!("(SELECT id FROM {db}names WHERE name = {p})");
    format!(
        "arm = {} AND version = {} AND test = {}",
        id("?1"),
        id("?2"),
        id("?3")
    )
}

/// The stored part of a run's key (hex).
fn key_bytes(hex: &str) -> Vec<u8> {
    (0..(hex.len() / 2).min(KEY_BYTES))
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0))
        .collect()
}
