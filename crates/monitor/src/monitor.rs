//! The seam every monitor implements: what the weaver, the aspect engine
//! and the readers of records need to know of a monitor, and nothing of
//! what it watches.
//!
//! A monitor is a unit type (`ranges::Ranges`) implementing [`Monitor`]:
//! its name, its record format, its runtime text (the hot part at the top
//! of each woven unit, the cold part at its end, and between them the
//! unit's own text from its [`UnitText`], whose constructor and fork
//! handler `c_text::unit_hooks` writes once per unit), its aspect API, and
//! the parser of one record. [`Monitor::read`] is then its one reader over
//! files and directories of records, with one error type ([`ReadError`])
//! and one rule for a path that does not exist (an error).
//! [`for_each_monitor`] visits every monitor weft ships.

use std::path::{Path, PathBuf};

use weft_lang::engine::ScriptApi;

use crate::record::{Format, ReadError, RecordError};

/// One monitor: a kind of C runtime woven into programs, the records it
/// writes and their reader.
pub trait Monitor {
    /// The monitor's name, as its commands and docs call it (`ranges`).
    const NAME: &'static str;
    /// Its record files: magic, version, extension.
    const FORMAT: Format;
    /// The runtime's hot part: the first text of every woven unit that
    /// uses the monitor (no headers; inline updates).
    const RUNTIME_HOT: &'static str;
    /// The runtime's cold part: at the end of every such unit (the record
    /// writer, from `runtime/weft_out.h`).
    const RUNTIME_COLD: &'static str;
    /// Its aspect API (the rhai types aspects build units with).
    const SCRIPT_API: ScriptApi;
    /// What the weaver builds for one woven unit.
    type Unit: UnitText;
    /// What one record file holds.
    type Record: std::fmt::Debug;

    /// Parses one record file's bytes; errors name the byte offset.
    fn parse(data: &[u8]) -> Result<Self::Record, RecordError>;

    /// Reads the record file at `path`.
    fn read_file(path: &Path) -> Result<Self::Record, ReadError> {
        let data = std::fs::read(path).map_err(|cause| ReadError::Io {
            path: path.to_path_buf(),
            cause,
        })?;
        Self::parse(&data).map_err(|error| ReadError::Malformed {
            path: path.to_path_buf(),
            error,
        })
    }

    /// The record files `inputs` name (see [`Format::files_named`]: a
    /// directory stands for its records, recursively; a missing path is
    /// [`ReadError::Missing`]).
    fn files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
        Self::FORMAT.files_named(inputs)
    }

    /// The record files `inputs` name, each input required to name some
    /// (see [`Format::files_each`]: a directory without records is
    /// [`ReadError::Empty`]).
    fn files_each(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
        Self::FORMAT.files_each(inputs)
    }

    /// The records `inputs` name, each with its file, in [`Monitor::files`]
    /// order; the first file that cannot be read is the error.
    fn read(inputs: &[PathBuf]) -> Result<Vec<(PathBuf, Self::Record)>, ReadError> {
        Self::files(inputs)?
            .into_iter()
            .map(|file| Ok((file.clone(), Self::read_file(&file)?)))
            .collect()
    }
}

/// The text a monitor adds to one woven unit, around its original text.
pub trait UnitText {
    /// The text for the very top of the unit: the hot part and the unit's
    /// state (empty when the unit has nothing to monitor).
    fn prelude(&self) -> String;
    /// The text for the very end of the unit: the cold part, the unit's
    /// table and its once-per-unit constructor and fork handler (empty when
    /// the unit has nothing to monitor).
    fn epilogue(&self) -> String;
}

/// Something done for each monitor in turn (see [`for_each_monitor`]).
pub trait MonitorVisitor {
    /// Does it for the monitor `M`.
    fn visit<M: Monitor>(&mut self);
}

/// Visits every monitor weft ships, in [`crate::SCRIPT_APIS`] order.
pub fn for_each_monitor(visitor: &mut impl MonitorVisitor) {
    visitor.visit::<crate::ranges::Ranges>();
    visitor.visit::<crate::trace::Traces>();
    visitor.visit::<crate::nonterm::Nonterm>();
    visitor.visit::<crate::outputs::Outputs>();
}
