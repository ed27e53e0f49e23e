//! `perform NAME` on the program or a join point: runs a transformation pass
//! and queues its edits like any other edit.

use super::Program;
use crate::edit::Op;
use crate::engine::HostError;
use crate::joinpoint::{JoinPoint, Value};

/// Runs transformation `action` on the file `jp` is in, or on every file
/// when `jp` is the program. The pass's edits join the pending edits (so
/// they conflict loudly with overlapping ones) and apply at the next commit.
pub fn perform(program: &mut Program, jp: &JoinPoint, action: &str, args: &[Value]) -> Result<(), HostError> {
    if action.eq_ignore_ascii_case("Unroll") {
        return Err(HostError::Failed(
            "transformation Unroll is not implemented: weft does not unroll loops".into(),
        ));
    }
    if !args.is_empty() {
        return Err(HostError::Failed(format!(
            "transformation {action} takes no arguments ({} given)",
            args.len()
        )));
    }
    let targets: Vec<usize> = match jp.file {
        Some(index) => vec![index],
        None => (0..program.files.len()).collect(),
    };
    for index in targets {
        let (files, sema) = program.with_semantics();
        let file = files.get(index).ok_or_else(|| {
            HostError::Failed(format!("join point `{}` names no file of the program", jp.kind))
        })?;
        let outcome = crate::transform::run(action, file, sema, index)
            .map_err(|e| HostError::Failed(format!("transformation {action}: {e}")))?;
        let origin = if jp.file.is_some() {
            file.map.approximate(jp.range.start)
        } else {
            0
        };
        program
            .skipped
            .extend(outcome.skipped.iter().map(|s| format!("{action}: {s}")));
        program
            .edits_of(index)
            .push(outcome.edits.into_iter().map(Op::from), origin)
            .map_err(|e| HostError::Failed(format!("transformation {action}: {e}")))?;
    }
    Ok(())
}
