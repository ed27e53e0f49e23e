//! Range monitoring as a [`Monitor`].

use super::record::{self, Record};
use super::table::{RUNTIME_COLD, RUNTIME_HOT, TableSpec};
use crate::monitor::{Monitor, UnitText};
use crate::record::{Format, RecordError};
use weft_lang::engine::ScriptApi;

/// The range monitor (MANET): each variable's range, per unit and process.
pub struct Ranges;

impl Monitor for Ranges {
    const NAME: &'static str = "ranges";
    const FORMAT: Format = record::FORMAT;
    const RUNTIME_HOT: &'static str = RUNTIME_HOT;
    const RUNTIME_COLD: &'static str = RUNTIME_COLD;
    const SCRIPT_API: ScriptApi = super::aspect_api::register;
    type Unit = TableSpec;
    type Record = Record;

    fn parse(data: &[u8]) -> Result<Record, RecordError> {
        record::parse_record(data)
    }
}

impl UnitText for TableSpec {
    fn prelude(&self) -> String {
        TableSpec::prelude(self)
    }
    fn epilogue(&self) -> String {
        TableSpec::epilogue(self)
    }
}
