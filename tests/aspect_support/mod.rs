//! Running a loaded aspect over a host in the test process, as `weft weave`
//! runs it: from its first aspectdef, with the monitors' script functions
//! and the default limits.

use weft::aspect::Module;
use weft::engine::{EngineError, Host, RunReport};

/// Runs `module` with `args` (name, value) over `host`.
pub fn run_aspect<H: Host + Send + Default + 'static>(
    module: &Module,
    args: &[(String, String)],
    host: &mut H,
) -> Result<RunReport, EngineError> {
    weft::engine::run(
        module,
        None,
        args,
        weft_monitor::SCRIPT_APIS,
        &weft::Limits::default(),
        host,
    )
}
