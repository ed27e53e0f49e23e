//! This crate as the weaver's loop analysis: [`SolverAnalysis`] answers
//! the `src` attributes of loops (`weft_weave::program::LoopAnalysis`),
//! so that an aspect can weave `if (SRC)` checks. The solver is looked for
//! at the first question, not before: a weave that never asks needs none.

use std::sync::OnceLock;
use std::time::Duration;

use rayon::prelude::*;
use weft_c::ParsedFile;
use weft_c::sema::Semantics as Sema;
use weft_smt::{Kind, Solver};
use weft_weave::program::{Integers, LoopAnalysis, LoopFinding};

use crate::{GOTO, LOOP_BUDGET, Semantics, find, loops_in};

/// The SRC inference of [`infer`](crate::infer) with a solver found on first use.
pub struct SolverAnalysis {
    kind: Option<Kind>,
    timeout: Duration,
    solver: OnceLock<Result<Solver, String>>,
}

impl SolverAnalysis {
    /// An analysis with the solver `kind` names (None: z3 if on `$PATH`,
    /// else cvc5), each query allowed `timeout`.
    pub fn new(kind: Option<Kind>, timeout: Duration) -> SolverAnalysis {
        SolverAnalysis {
            kind,
            timeout,
            solver: OnceLock::new(),
        }
    }

    fn solver(&self) -> Result<&Solver, String> {
        self.solver
            .get_or_init(|| Solver::find(self.kind, self.timeout).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| format!("{e} (a loop's `src` attribute needs one)"))
    }
}

impl LoopAnalysis for SolverAnalysis {
    fn analyse(
        &self,
        file: &ParsedFile,
        sema: &Sema,
        index: usize,
        integers: Integers,
    ) -> Result<Vec<LoopFinding>, String> {
        let solver = self.solver()?;
        let semantics = match integers {
            Integers::BitVector => Semantics::BitVector,
            Integers::Ideal => Semantics::Ideal,
        };
        // A goto loop is no loop join point: the GotoLoops pass makes it a
        // `for (;;)` first, whose paths are the goto loop's.
        loops_in(file, sema, index)
            .par_iter()
            .filter(|l| l.kind != GOTO)
            .map(|l| {
                let src = match &l.fragment {
                    Err(why) => Err(format!("outside the integer fragment: {why}")),
                    Ok(fragment) if let Some(why) = fragment.unwoven() => Err(why),
                    Ok(fragment) => find(fragment, semantics, &solver.with_budget(LOOP_BUDGET))
                        .map_err(|e| e.to_string())?
                        .map(|(c, method)| (c, method.to_string())),
                };
                Ok(LoopFinding {
                    range: l.range.clone(),
                    src,
                })
            })
            .collect()
    }
}
