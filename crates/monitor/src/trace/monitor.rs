//! Trace monitoring as a [`Monitor`].

use super::record::{self, TraceFile};
use super::spec::{RUNTIME_COLD, RUNTIME_HOT, TraceSpec};
use crate::monitor::{Monitor, UnitText};
use crate::record::{Format, RecordError};
use weft_lang::engine::ScriptApi;

/// The trace monitor: sampled values at program points, for likely
/// invariants.
pub struct Traces;

impl Monitor for Traces {
    const NAME: &'static str = "traces";
    const FORMAT: Format = record::FORMAT;
    const RUNTIME_HOT: &'static str = RUNTIME_HOT;
    const RUNTIME_COLD: &'static str = RUNTIME_COLD;
    const SCRIPT_API: ScriptApi = super::aspect_api::register;
    type Unit = TraceSpec;
    type Record = TraceFile;

    fn parse(data: &[u8]) -> Result<TraceFile, RecordError> {
        record::parse(data)
    }
}

impl UnitText for TraceSpec {
    fn prelude(&self) -> String {
        TraceSpec::prelude(self)
    }
    fn epilogue(&self) -> String {
        TraceSpec::epilogue(self)
    }
}
