//! Finding and reading range inputs: record files (alone or in directory
//! trees) and range sets (JSON).

use super::Ranges;
use super::error::RangesError;
use super::record::{self, Record};
use super::set::RangeSet;
use crate::monitor::Monitor;
use std::path::{Path, PathBuf};

/// Every record file under `dir`, recursively, in path order.
pub fn record_files(dir: &Path) -> Result<Vec<PathBuf>, RangesError> {
    record::FORMAT.files_in(dir).map_err(|e| RangesError::Io {
        path: e.path().unwrap_or(dir).to_path_buf(),
        cause: e.into(),
    })
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, RangesError> {
    std::fs::read(path).map_err(|cause| RangesError::Io {
        path: path.to_path_buf(),
        cause,
    })
}

fn malformed(path: &Path) -> impl Fn(String) -> RangesError + '_ {
    move |reason| RangesError::Malformed {
        path: path.to_path_buf(),
        reason,
    }
}

/// Reads one record file.
pub fn read_record(path: &Path) -> Result<Record, RangesError> {
    record::parse(&read_bytes(path)?).map_err(malformed(path))
}

/// A record's ranges as a set naming `path` as its run.
pub fn record_set(record: Record, path: &Path) -> RangeSet {
    let mut set = RangeSet::default();
    for (key, range) in record.entries {
        set.add(key, range);
    }
    set.runs.push(path.display().to_string());
    set
}

/// Reads one file: a record file (recognised by its magic) or a range set.
/// A record's set names the file as its run.
pub fn read_file(path: &Path) -> Result<RangeSet, RangesError> {
    let data = read_bytes(path)?;
    let malformed = malformed(path);
    if crate::record::is_weft_record(&data) {
        return Ok(record_set(record::parse(&data).map_err(malformed)?, path));
    }
    let text = String::from_utf8(data)
        .map_err(|_| malformed("neither a range record nor a JSON range set".to_string()))?;
    RangeSet::from_json(&text).map_err(malformed)
}

/// Reads a file, or every record file under a directory, into one set. A
/// directory counts as one run. A directory without records is an error:
/// a wrong path must not pass as "no ranges".
pub fn read_path(path: &Path) -> Result<RangeSet, RangesError> {
    if !path.is_dir() {
        Ranges::files(&[path.to_path_buf()])?;
        return read_file(path);
    }
    let records = Ranges::read(&[path.to_path_buf()])?;
    if records.is_empty() {
        return Err(RangesError::Empty {
            path: path.to_path_buf(),
        });
    }
    let mut set = RangeSet::default();
    for (file, record) in records {
        let mut one = record_set(record, &file);
        one.runs.clear();
        set.merge(&one);
    }
    set.runs.push(path.display().to_string());
    Ok(set)
}

/// Reads and merges several paths (see [`read_path`]).
pub fn read_paths(paths: &[PathBuf]) -> Result<RangeSet, RangesError> {
    let mut set = RangeSet::default();
    for path in paths {
        set.merge(&read_path(path)?);
    }
    Ok(set)
}
