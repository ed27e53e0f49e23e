//! Non-termination monitoring as a [`Monitor`].

use super::record::{self, ReportFile};
use super::spec::{NontermSpec, RUNTIME_COLD, RUNTIME_HOT};
use crate::monitor::{Monitor, UnitText};
use crate::record::{Format, RecordError};
use weft_lang::engine::ScriptApi;

/// The non-termination monitor: loops whose state comes back.
pub struct Nonterm;

impl Monitor for Nonterm {
    const NAME: &'static str = "nonterm";
    const FORMAT: Format = record::FORMAT;
    const RUNTIME_HOT: &'static str = RUNTIME_HOT;
    const RUNTIME_COLD: &'static str = RUNTIME_COLD;
    const SCRIPT_API: ScriptApi = super::aspect_api::register;
    type Unit = NontermSpec;
    type Record = ReportFile;

    fn parse(data: &[u8]) -> Result<ReportFile, RecordError> {
        record::parse(data)
    }
}

impl UnitText for NontermSpec {
    fn prelude(&self) -> String {
        NontermSpec::prelude(self)
    }
    fn epilogue(&self) -> String {
        NontermSpec::epilogue(self)
    }
}
