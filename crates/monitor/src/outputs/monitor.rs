//! Output capture as a [`Monitor`].

use super::record::{self, OutputRecord};
use super::spec::{self, RUNTIME_COLD, RUNTIME_HOT};
use crate::monitor::{Monitor, UnitText};
use crate::record::{Format, RecordError};
use weft_lang::engine::ScriptApi;

/// The outputs monitor: named values as text, to compare revisions.
pub struct Outputs;

/// One woven unit of the outputs monitor: its text depends on its path
/// only (what is captured is woven where it happens).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputsUnit {
    /// The unit's path relative to the program's root.
    pub file: String,
}

impl Monitor for Outputs {
    const NAME: &'static str = "outputs";
    const FORMAT: Format = record::FORMAT;
    const RUNTIME_HOT: &'static str = RUNTIME_HOT;
    const RUNTIME_COLD: &'static str = RUNTIME_COLD;
    const SCRIPT_API: ScriptApi = super::aspect_api::register;
    type Unit = OutputsUnit;
    type Record = OutputRecord;

    fn parse(data: &[u8]) -> Result<OutputRecord, RecordError> {
        record::parse(data)
    }
}

impl UnitText for OutputsUnit {
    fn prelude(&self) -> String {
        spec::prelude(&self.file)
    }
    fn epilogue(&self) -> String {
        spec::epilogue()
    }
}
