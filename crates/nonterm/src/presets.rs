//! Inputs that reach a hang: for each loop of `main` whose recurrence
//! condition (SRC) is known, a solver's model of the SRC with the loop's
//! entry gives values of the loop's variables under which it never ends;
//! those set straight from `__VERIFIER_nondet_*()` calls become the values
//! of those calls, in the order they run, for the first runs of
//! `weft nonterm check --svcomp` (the harness reads them from
//! `WEFT_NONDET_PRESET`). A rare value (`c == 12345`) is then tried first
//! instead of hoped for; a wrong guess costs a run, never a false report,
//! since only the monitor reports.

use std::path::Path;

use weft_loops::{LOOP_BUDGET, Outcome, Semantics, entry, infer, loops, model, verify};
use weft_smt::Solver;

/// The environment variable the SV-COMP harness reads its presets from.
pub const PRESET_VARIABLE: &str = "WEFT_NONDET_PRESET";

/// Input values for one run, from one loop's SRC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The loop, `FILE:LINE`.
    pub place: String,
    /// The value of each input call before the loop, in order (None: drawn
    /// as usual).
    pub values: Vec<Option<i128>>,
    /// The model, `name = value` for each variable an input sets.
    pub model: Vec<String>,
}

impl Preset {
    /// The value of [`PRESET_VARIABLE`]: the values separated by commas,
    /// empty where drawn as usual.
    pub fn env(&self) -> String {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|v| v.map(|v| v.to_string()).unwrap_or_default())
            .collect();
        values.join(",")
    }
}

/// The presets of the loops of `files` (each a C file of the program);
/// a loop without an SRC, outside `main`'s top level, or with no input
/// feeding it gives none.
pub fn presets(files: &[&Path], semantics: Semantics, solver: &Solver) -> Vec<Preset> {
    let mut out = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        for l in loops(file, &text) {
            let Ok(fragment) = &l.fragment else { continue };
            let Some(entry) = entry(&text, &l.range) else {
                continue;
            };
            let fed = |v: &Option<String>| v.as_ref().is_some_and(|v| fragment.vars.contains_key(v));
            if !entry.inputs.iter().any(fed) {
                continue;
            }
            let solver = solver.with_budget(LOOP_BUDGET);
            let Ok(Outcome::Found(src)) = infer(fragment, semantics, &solver) else {
                continue;
            };
            if verify(fragment, &src, &solver) != Ok(true) {
                continue;
            }
            let Ok(Some(values)) = model(fragment, &src, &entry.constants, &solver) else {
                continue;
            };
            let at = |v: &Option<String>| v.as_ref().and_then(|v| values.get(v).copied());
            out.push(Preset {
                place: format!("{name}:{}", l.line),
                values: entry.inputs.iter().map(at).collect(),
                model: entry
                    .inputs
                    .iter()
                    .flatten()
                    .filter_map(|v| Some(format!("{v} = {}", values.get(v)?)))
                    .collect(),
            });
        }
    }
    out
}
