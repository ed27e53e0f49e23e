//! The perfect oracle (§4.1): a version passes a test when its outputs
//! equal the original's.

use weft_run::RunRecord;

/// Whether `version` behaved as `original` did: same exit status, same
/// stdout, same named output files (and same stderr when asked), and it
/// neither crashed, hung nor overflowed.
pub fn passes(original: &RunRecord, version: &RunRecord, compare_stderr: bool) -> bool {
    version.abnormal.is_none()
        && version.status == original.status
        && version.stdout == original.stdout
        && version.outputs == original.outputs
        && (!compare_stderr || version.stderr == original.stderr)
}
