//! Errors reading range records and range sets. Every error names its file.

use std::path::PathBuf;

/// Why a record file or range set could not be used.
#[derive(Debug, thiserror::Error)]
pub enum RangesError {
    /// The file could not be read. (`cause` is shown in the message, not
    /// chained as a source, so that error chains print it once.)
    #[error("{}: {cause}", path.display())]
    Io { path: PathBuf, cause: std::io::Error },
    /// The file is not a valid record file or range set.
    #[error("{}: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
    /// Records that could not be found or read (a path that does not exist).
    #[error(transparent)]
    Records(#[from] crate::record::ReadError),
    /// A path held no record file or range set at all.
    #[error("{}: no range records (*.ranges) or range sets (*.json) found", path.display())]
    Empty { path: PathBuf },
}
