//! The `src` attributes of loops: sufficient recurrence conditions found
//! by a static loop analysis that the join point layer does not own (it
//! needs an SMT solver, and lives in a layer above, weft-loops). Whoever
//! runs the weave installs one ([`Program::set_loop_analysis`]); without
//! one, asking for `src` stops the weave and says so. Every file's loops
//! are analysed at the first ask, files and loops in parallel, and a file
//! again only after it changed.

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use weft_c::ParsedFile;
use weft_c::sema::Semantics;
use weft_lang::engine::HostError;

use super::Program;
use crate::joinpoint::{JoinPoint, Value};

/// How integers behave in the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Integers {
    /// Bit-vectors at the C types' widths: values wrap, as the machine's do.
    BitVector,
    /// Mathematical integers: nothing overflows.
    Ideal,
}

/// One loop's finding under one [`Integers`]: its SRC as C text and how
/// it was found, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopFinding {
    /// The loop's byte range in the file's view (its join point's range).
    pub range: Range<usize>,
    pub src: Result<(String, String), String>,
}

/// A static analysis of loops for the `src` attributes.
pub trait LoopAnalysis: Send + Sync {
    /// Every loop of `file` (file `index` of the program, whose semantics
    /// is `sema`) with its finding under `integers`. Err when the analysis
    /// cannot run at all (no solver), said in words.
    fn analyse(
        &self,
        file: &ParsedFile,
        sema: &Semantics,
        index: usize,
        integers: Integers,
    ) -> Result<Vec<LoopFinding>, String>;
}

/// The findings of one file, for the text they were computed from.
pub(super) struct Cached {
    index: usize,
    integers: Integers,
    /// Held, so the text compared by address cannot be freed and its
    /// address reused by another text.
    text: Arc<str>,
    findings: Vec<LoopFinding>,
}

/// Whether `name` (canonical) is one of the attributes answered here.
pub fn is_recurrence_attribute(kind: &str, name: &str) -> bool {
    kind == "loop" && matches!(name, "src" | "src_reason" | "src_ideal" | "src_ideal_reason")
}

impl Program {
    /// Installs the analysis that answers the `src` attributes of loops.
    pub fn set_loop_analysis(&mut self, analysis: Arc<dyn LoopAnalysis>) {
        self.loop_analysis = Some(analysis);
        self.recurrences.clear();
    }

    /// The value of `src`, `src_reason`, `src_ideal` or `src_ideal_reason`
    /// (canonical `name`) of the loop `jp`.
    pub(super) fn recurrence(&mut self, jp: &JoinPoint, name: &str) -> Result<Value, HostError> {
        let integers = if name.starts_with("src_ideal") {
            Integers::Ideal
        } else {
            Integers::BitVector
        };
        let analysis = self.loop_analysis.clone().ok_or_else(|| {
            HostError::Unavailable(format!(
                "`{name}` needs the static loop analysis and its SMT solver, which this weave was not given (`weft weave` gives it)"
            ))
        })?;
        let index = jp
            .file
            .ok_or_else(|| HostError::Failed("a loop outside any file".into()))?;
        self.with_semantics();
        let (files, sema) = (&self.files, self.sema.as_ref().expect("built just now"));
        let current = |c: &Cached, i: usize| {
            c.index == i && c.integers == integers && Arc::ptr_eq(&c.text, &files[i].text)
        };
        // Every file not analysed yet (or changed since) at once, in
        // parallel: an aspect that asks about one loop asks about all.
        let stale: Vec<usize> = (0..files.len())
            .filter(|&i| !self.recurrences.iter().any(|c| current(c, i)))
            .collect();
        let fresh = stale
            .par_iter()
            .map(|&i| {
                let findings = analysis.analyse(&files[i], sema, i, integers)?;
                Ok(Cached {
                    index: i,
                    integers,
                    text: Arc::clone(&files[i].text),
                    findings,
                })
            })
            .collect::<Result<Vec<Cached>, String>>()
            .map_err(HostError::Unavailable)?;
        self.recurrences
            .retain(|c| c.integers != integers || !stale.contains(&c.index));
        self.recurrences.extend(fresh);
        let at = self
            .recurrences
            .iter()
            .position(|c| c.index == index && c.integers == integers)
            .ok_or_else(|| HostError::Failed("no such file".into()))?;
        let found = self.recurrences[at].findings.iter().find(|f| f.range == jp.range);
        let reason = name.ends_with("_reason");
        Ok(match (found.map(|f| &f.src), reason) {
            (Some(Ok((condition, _))), false) => Value::Str(condition.clone()),
            (Some(Ok((_, method))), true) => Value::Str(method.clone()),
            (Some(Err(why)), true) => Value::Str(why.clone()),
            (None, true) => Value::Str("not analysed".into()),
            (_, false) => Value::Null,
        })
    }
}
