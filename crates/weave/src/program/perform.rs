//! `perform NAME` on the program or a join point: runs a transformation pass
//! and queues its edits like any other edit.

use rayon::prelude::*;

use super::Program;
use crate::edit::Op;
use crate::joinpoint::{JoinPoint, Value};
use crate::transform::{PassOutcome, TransformError};
use weft_c::sema::Semantics;
use weft_lang::engine::HostError;

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
        Some(index) if index >= program.files.len() => {
            return Err(HostError::Failed(format!(
                "join point `{}` names no file of the program",
                jp.kind
            )));
        }
        Some(index) => vec![index],
        None => (0..program.files.len()).collect(),
    };
    let origin = jp.range.start;
    let outcomes = program
        .run_pass(action, &targets, origin)
        .map_err(|e| HostError::Failed(format!("transformation {action}: {e}")))?;
    for outcome in outcomes {
        program
            .skipped
            .extend(outcome.skipped.iter().map(|s| format!("{action}: {s}")));
    }
    Ok(())
}

impl Program {
    /// Runs pass `pass` (canonical name or alias) over the files `targets`
    /// and queues its edits (so they conflict loudly with overlapping ones)
    /// for the next commit. `origin`, a view offset of the join point that
    /// asked (0 for the whole program), locates conflicts in messages.
    /// Returns each target's outcome, in the order of `targets`.
    pub fn run_pass(
        &mut self,
        pass: &str,
        targets: &[usize],
        origin: usize,
    ) -> Result<Vec<PassOutcome>, TransformError> {
        let unused;
        let (files, sema) = if crate::transform::uses_semantics(pass)? {
            self.with_semantics()
        } else {
            // Not built for a pass that would not look at them.
            unused = Semantics::build(&[], &[]);
            (self.files(), &unused)
        };
        // A pass looks at one file at a time: files run in parallel.
        let outcomes: Vec<(usize, usize, PassOutcome)> = targets
            .par_iter()
            .filter_map(|&index| files.get(index).map(|file| (index, file)))
            .map(|(index, file)| {
                let outcome = crate::transform::run(pass, file, sema, index)?;
                Ok((index, file.map.approximate(origin), outcome))
            })
            .collect::<Result<_, TransformError>>()?;
        let keeps_declarations = crate::transform::keeps_declarations(pass)?;
        let mut reports = Vec::with_capacity(outcomes.len());
        for (index, origin, outcome) in outcomes {
            self.edits_of(index, keeps_declarations)
                .push(outcome.edits.iter().cloned().map(Op::from), origin)?;
            reports.push(outcome);
        }
        Ok(reports)
    }
}
