//! The record files every monitor's runtime writes, and the one reader of
//! their common part.
//!
//! A woven translation unit writes one file per process under `$WEFT_OUT`:
//! `<unit>.<pid>[.<k>].<ext>`, the extension naming the monitor. Every file
//! starts with the same 64-byte header (`runtime/weft_out.h`), in the
//! writer's byte order:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic: `WEFT` and the monitor's tag, NUL-padded |
//! | 8..12 | format version |
//! | 12..16 | `0x01020304`, the byte-order mark |
//! | 16..20 | header size (64) |
//! | 20..32 | three layout words the monitor defines (sizes, counts) |
//! | 32..56 | pid, parent pid, creation time (seconds) |
//! | 56..64 | reserved |
//!
//! What follows is the monitor's own. Files are created exclusively and
//! written through shared mappings or single `write`s, so a crash, `_exit`
//! or `SIGKILL` leaves what was recorded before it; a fork child gets a
//! file of its own.

use std::fmt;
use std::path::{Path, PathBuf};

/// Size of the common header.
pub const HEADER_SIZE: usize = 64;
/// `0x01020304` as the writer stored it: tells its byte order.
const ORDER_MARK: u32 = 0x0102_0304;

/// Whether `data` starts like a record file of any monitor (a reader
/// expecting another monitor's then says so, instead of reading it as
/// something else).
pub fn is_weft_record(data: &[u8]) -> bool {
    data.starts_with(b"WEFT")
}

/// What identifies one monitor's record files.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    /// The first eight bytes of every file.
    pub magic: &'static [u8; 8],
    /// The version this reader understands.
    pub version: u32,
    /// The file-name extension.
    pub extension: &'static str,
    /// What the records hold, for messages ("range record").
    pub what: &'static str,
}

/// The common header of a record file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The monitor's three layout words.
    pub layout: [u32; 3],
    pub pid: i64,
    pub ppid: i64,
    /// Creation time, seconds since the Unix epoch.
    pub time: i64,
}

/// What is wrong with a record file, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Byte offset of the problem in the file.
    pub offset: usize,
    pub reason: String,
}

impl RecordError {
    /// An error at byte `offset`.
    pub fn at(offset: usize, reason: impl Into<String>) -> RecordError {
        RecordError {
            offset,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for RecordError {}

/// Why the records a path names cannot be read: the one error of every
/// monitor's reader ([`crate::Monitor::read`]). Every variant names the path.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path does not exist.
    #[error("{}: no such file or directory", .0.display())]
    Missing(PathBuf),
    /// A file or directory could not be read. (`cause` is shown in the
    /// message, not chained as a source, so that error chains print it once.)
    #[error("{}: {cause}", path.display())]
    Io { path: PathBuf, cause: std::io::Error },
    /// A file is not a whole, valid record of the monitor (`error` has the
    /// byte offset).
    #[error("{}: {error}", path.display())]
    Malformed { path: PathBuf, error: RecordError },
    /// An input that had to hold records of the monitor (see
    /// [`Format::files_each`]) holds none.
    #[error(
        "{}: no .{extension} files (was the program woven with the monitor and run with WEFT_OUT set?)",
        path.display()
    )]
    Empty { path: PathBuf, extension: &'static str },
}

/// Little-endian field access that reports truncation instead of panicking.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// `N` bytes at `at`.
    pub fn array<const N: usize>(&self, at: usize) -> Result<[u8; N], RecordError> {
        self.0
            .get(at..at + N)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| {
                RecordError::at(
                    self.0.len(),
                    format!("truncated: the file ends before byte {}", at + N),
                )
            })
    }
    pub fn u32(&self, at: usize) -> Result<u32, RecordError> {
        self.array(at).map(u32::from_le_bytes)
    }
    pub fn u64(&self, at: usize) -> Result<u64, RecordError> {
        self.array(at).map(u64::from_le_bytes)
    }
    pub fn i64(&self, at: usize) -> Result<i64, RecordError> {
        self.array(at).map(i64::from_le_bytes)
    }
}

impl Format {
    /// Reads and checks the common header of `data`.
    pub fn header(&self, data: &[u8]) -> Result<Header, RecordError> {
        if data.len() < HEADER_SIZE {
            return Err(RecordError::at(
                data.len(),
                format!("truncated: shorter than the {HEADER_SIZE}-byte header"),
            ));
        }
        let b = Bytes(data);
        if &b.array::<8>(0)? != self.magic {
            return Err(RecordError::at(
                0,
                format!("not a weft {} (bad magic)", self.what),
            ));
        }
        let version = b.u32(8)?;
        if version != self.version {
            return Err(RecordError::at(
                8,
                format!(
                    "format version {version}, this weft reads version {}",
                    self.version
                ),
            ));
        }
        match b.u32(12)? {
            ORDER_MARK => {}
            m if m.swap_bytes() == ORDER_MARK => {
                return Err(RecordError::at(
                    12,
                    "written on a big-endian machine; read it there",
                ));
            }
            m => return Err(RecordError::at(12, format!("bad byte-order mark {m:#x}"))),
        }
        let header_size = b.u32(16)? as usize;
        if header_size != HEADER_SIZE {
            return Err(RecordError::at(
                16,
                format!("header size {header_size}, expected {HEADER_SIZE}"),
            ));
        }
        Ok(Header {
            layout: [b.u32(20)?, b.u32(24)?, b.u32(28)?],
            pid: b.i64(32)?,
            ppid: b.i64(40)?,
            time: b.i64(48)?,
        })
    }

    /// Every file of this monitor under `dir`, recursively, in path order.
    pub fn files_in(&self, dir: &Path) -> Result<Vec<PathBuf>, walkdir::Error> {
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
            let entry = entry?;
            let ours = entry.path().extension().is_some_and(|x| x == self.extension);
            if entry.file_type().is_file() && ours {
                files.push(entry.into_path());
            }
        }
        Ok(files)
    }

    /// The files of this monitor that `inputs` name, in order: a directory
    /// stands for every file of this monitor under it ([`Format::files_in`],
    /// none being no error), a file for itself. A path that does not exist
    /// is [`ReadError::Missing`], whether a file or a directory was meant:
    /// a wrong path must not pass as "nothing recorded" (whoever runs a
    /// program creates its `$WEFT_OUT` first).
    pub fn files_named(&self, inputs: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
        let mut files = Vec::new();
        for input in inputs {
            if input.is_dir() {
                let found = self.files_in(input).map_err(|e| ReadError::Io {
                    path: e.path().unwrap_or(input).to_path_buf(),
                    cause: e.into(),
                })?;
                files.extend(found);
            } else if input.exists() {
                files.push(input.clone());
            } else {
                return Err(ReadError::Missing(input.clone()));
            }
        }
        Ok(files)
    }

    /// The files of this monitor that `inputs` name, as
    /// [`Format::files_named`] says, where an input naming none (a
    /// directory without records) is [`ReadError::Empty`]: for inputs each
    /// meant to be a run or a record, where "nothing" means a wrong path.
    pub fn files_each(&self, inputs: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
        let mut files = Vec::new();
        for input in inputs {
            let found = self.files_named(std::slice::from_ref(input))?;
            if found.is_empty() {
                return Err(ReadError::Empty {
                    path: input.clone(),
                    extension: self.extension,
                });
            }
            files.extend(found);
        }
        Ok(files)
    }

    /// The runs under `dir`, as record files grouped by execution: each
    /// immediate subdirectory holding files of this monitor is one run (all
    /// of them, recursively: every unit and forked process of one
    /// execution), named by its path; files directly in `dir` are grouped
    /// by the process id in their header into runs `DIR/pid-N`. Runs come
    /// sorted by name; a file whose header cannot be read is an error
    /// naming it.
    pub fn runs_in(&self, dir: &Path) -> Result<Vec<(String, Vec<PathBuf>)>, String> {
        let io = |e: std::io::Error| format!("{}: {e}", dir.display());
        let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        children.sort();
        let mut runs = Vec::new();
        let mut loose: std::collections::BTreeMap<i64, Vec<PathBuf>> = Default::default();
        for path in children {
            if path.is_dir() {
                let files = self.files_in(&path).map_err(|e| e.to_string())?;
                if !files.is_empty() {
                    runs.push((path.display().to_string(), files));
                }
            } else if path.extension().is_some_and(|x| x == self.extension) {
                let mut data = Vec::with_capacity(HEADER_SIZE);
                std::fs::File::open(&path)
                    .and_then(|f| {
                        std::io::Read::read_to_end(&mut std::io::Read::take(f, HEADER_SIZE as u64), &mut data)
                    })
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let header = self
                    .header(&data)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                loose.entry(header.pid).or_default().push(path);
            }
        }
        for (pid, files) in loose {
            runs.push((format!("{}/pid-{pid}", dir.display()), files));
        }
        runs.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Format = Format {
        magic: b"WEFTTST\0",
        version: 3,
        extension: "test",
        what: "test record",
    };

    fn header() -> Vec<u8> {
        let mut d = TEST.magic.to_vec();
        for v in [3u32, ORDER_MARK, 64, 7, 8, 9] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        for v in [42i64, 1, 1_700_000_000, 0] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        d
    }

    #[test]
    fn reads_the_common_header() {
        let h = TEST.header(&header()).unwrap();
        assert_eq!(h.layout, [7, 8, 9]);
        assert_eq!((h.pid, h.ppid, h.time), (42, 1, 1_700_000_000));
    }

    #[test]
    fn every_fault_names_its_offset() {
        let d = header();
        for len in 0..HEADER_SIZE {
            let e = TEST.header(&d[..len]).unwrap_err();
            assert!(e.reason.contains("truncated"), "{e}");
        }
        let mut bad = d.clone();
        bad[0] = b'X';
        assert_eq!(TEST.header(&bad).unwrap_err().offset, 0);
        let mut bad = d.clone();
        bad[8] = 4;
        assert!(
            TEST.header(&bad)
                .unwrap_err()
                .to_string()
                .starts_with("at byte 8: format version 4")
        );
        let mut bad = d.clone();
        bad[12..16].copy_from_slice(&ORDER_MARK.swap_bytes().to_le_bytes());
        assert!(TEST.header(&bad).unwrap_err().reason.contains("big-endian"));
        let mut bad = d;
        bad[16] = 32;
        assert_eq!(TEST.header(&bad).unwrap_err().offset, 16);
    }
}
