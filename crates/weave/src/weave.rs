//! One weave, in process: an aspect run against a program, and the woven
//! tree that results. `weft weave` and every layer that weaves (a study's
//! builds, `weft nonterm check`) call [`weave`]; none starts weft's own
//! command line to do it.
//!
//! The weave layer knows no monitor and no solver: what an aspect may
//! call beyond C (the monitors' table builders, a loop analysis for
//! `$loop.src`) comes in as [`Services`] from the caller.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use weft_lang::Limits;
use weft_lang::aspect::{self, Module};
use weft_lang::engine::{self, EngineError, HostError, RunReport, ScriptApi};

use crate::output::{self, Entry, Selection};
use crate::program::{LoopAnalysis, Program};

/// What a weave offers the aspect beyond the C program, and its bounds.
#[derive(Clone)]
pub struct Services<'a> {
    /// Script functions of the layers above (`weft_monitor::SCRIPT_APIS`).
    pub apis: &'a [ScriptApi],
    /// What answers `$loop.src`; without one such an attribute is
    /// unavailable (exit status 2, as a missing solver).
    pub loops: Option<Arc<dyn LoopAnalysis>>,
    /// What the aspect may use.
    pub limits: Limits,
    /// Whether the lines the aspect prints also go to standard output as
    /// they come (`weft weave`), or only into [`RunReport::printed`].
    pub echo: bool,
}

/// Why a weave failed, rendered as the user sees it.
#[derive(Debug, thiserror::Error)]
pub enum WeaveError {
    /// The aspect is wrong, or the setup is (no solver for `src`): the
    /// diagnostic with its caret. `weft weave`'s exit status 2.
    #[error("{0}")]
    Aspect(String),
    /// The weave itself failed (C not loaded, a runtime error of the
    /// script). Exit status 1.
    #[error("{0}")]
    Failed(String),
}

impl WeaveError {
    /// `weft weave`'s exit status for this failure.
    pub fn status(&self) -> i32 {
        match self {
            WeaveError::Aspect(_) => 2,
            WeaveError::Failed(_) => 1,
        }
    }
}

/// Runs `module` with `args` (`NAME=VALUE` inputs) against `program`,
/// leaving the edits committed or pending in it.
pub fn weave(
    module: &Module,
    args: &[(String, String)],
    program: &mut Program,
    services: &Services,
) -> Result<RunReport, WeaveError> {
    if let Some(loops) = &services.loops {
        program.set_loop_analysis(loops.clone());
    }
    let run = if services.echo {
        engine::run
    } else {
        engine::run_collected
    };
    let failed = |e: EngineError| match e {
        EngineError::Aspect(d) => WeaveError::Aspect(d.to_string()),
        // A missing solver is the setup's fault, like a bad aspect.
        EngineError::Host { error, diagnostic } if matches!(*error, HostError::Unavailable(_)) => {
            WeaveError::Aspect(diagnostic.to_string())
        }
        other => WeaveError::Failed(other.to_string()),
    };
    let mut report = run(module, None, args, services.apis, &services.limits, program).map_err(failed)?;
    // Branches of conditional groups the first reading did not keep: the
    // aspect runs again over each alternative reading, and the edits in
    // text only that reading saw join the weave.
    for pass in program.alternatives() {
        let mut alt = program.alternative(pass);
        let more = engine::run_collected(module, None, args, services.apis, &services.limits, &mut alt)
            .map_err(failed)?;
        alt.commit();
        program.absorb(&alt);
        merge_report(&mut report, more, services.echo);
    }
    Ok(report)
}

/// Adds to `report` what an alternative pass reported that the first
/// reading did not (the same refusal or line in shared text is reported
/// once), echoing the new lines when the weave echoes. A new printed line
/// is marked as coming from another reading, so that an aspect's summary
/// ("monitored: N loops") printed again by a pass over fewer files does
/// not read as a second summary of the whole program.
fn merge_report(report: &mut RunReport, more: RunReport, echo: bool) {
    for w in more.warnings {
        let known = |k: &engine::Warning| k.c_location == w.c_location && k.message == w.message;
        if !report.warnings.iter().any(known) {
            report.warnings.push(w);
        }
    }
    for line in more.printed {
        if report.printed.contains(&line) {
            continue;
        }
        let line = format!("{ALTERNATIVE_MARK}{line}");
        if !report.printed.contains(&line) {
            if echo {
                println!("{line}");
            }
            report.printed.push(line);
        }
    }
}

/// What starts a line printed by the aspect over another reading of
/// conditional branches.
const ALTERNATIVE_MARK: &str = "(other #if branches) ";

/// A woven program, not yet written.
pub struct Woven {
    pub program: Program,
    /// The input tree's entries, to mirror it.
    pub entries: Vec<Entry>,
    /// Inserts refused and lines printed.
    pub report: RunReport,
}

impl Woven {
    /// Writes the woven tree to `out`, replaced as a whole (as `weft weave
    /// --output`).
    pub fn write(mut self, out: &Path) -> anyhow::Result<()> {
        self.program.commit();
        output::write_tree(&self.entries, &self.program.woven(), out)
    }

    /// What the weave printed and every insert it refused, one line each,
    /// for a log.
    pub fn lines(&self) -> Vec<String> {
        let refused = self
            .report
            .warnings
            .iter()
            .map(|w| format!("warning: {}: insert refused: {}", w.c_location, w.message));
        let skipped = self.program.skipped().iter().map(|s| format!("warning: {s}"));
        let printed = self.report.printed.iter().cloned();
        printed.chain(refused).chain(skipped).collect()
    }
}

/// Weaves the aspect file `aspect` into the C files of `inputs` (files
/// and directories, `*.c` woven, as `weft weave PATH…` with no other
/// option) and returns the woven program.
pub fn weave_tree(
    aspect: &Path,
    args: &[(String, String)],
    inputs: &[PathBuf],
    services: &Services,
) -> Result<Woven, WeaveError> {
    let module = aspect::load(aspect, &services.limits).map_err(|d| WeaveError::Aspect(d.to_string()))?;
    let failed = |e: anyhow::Error| WeaveError::Failed(format!("{e:#}"));
    let selection = Selection::new(&[], &[]).map_err(failed)?;
    let entries = output::scan(inputs, &selection).map_err(failed)?;
    let mut program = Program::load(&entries, None).map_err(failed)?;
    let report = weave(&module, args, &mut program, services)?;
    Ok(Woven {
        program,
        entries,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASPECT: &str = r#"aspectdef Count
    input tag = 'x' end
    select function{"main"}.loop end
    apply
        $loop.insert before 'int seen_[[tag]] = 1;';
        println('loop at line ' + $loop.line);
    end
end
"#;

    fn services() -> Services<'static> {
        Services {
            apis: &[],
            loops: None,
            limits: Limits::default(),
            echo: false,
        }
    }

    #[test]
    fn a_tree_is_woven_in_process_with_its_arguments_and_printed_lines() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        std::fs::create_dir(&tree).unwrap();
        std::fs::write(
            tree.join("main.c"),
            "int main(void) {\n    int i;\n    for (i = 0; i < 3; i++) {}\n    return 0;\n}\n",
        )
        .unwrap();
        std::fs::write(tree.join("README"), "kept\n").unwrap();
        let aspect = dir.path().join("count.lara");
        std::fs::write(&aspect, ASPECT).unwrap();
        let args = [("tag".to_string(), "t7".to_string())];
        let woven = weave_tree(&aspect, &args, std::slice::from_ref(&tree), &services()).unwrap();
        assert_eq!(woven.lines(), ["loop at line 3"]);
        woven.write(&dir.path().join("woven")).unwrap();
        let text = std::fs::read_to_string(dir.path().join("woven/tree/main.c")).unwrap();
        assert!(text.contains("int seen_t7 = 1;"), "{text}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("woven/tree/README")).unwrap(),
            "kept\n"
        );
    }

    #[test]
    fn a_bad_aspect_is_an_aspect_error_at_its_location() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.c"), "int main(void) { return 0; }\n").unwrap();
        let aspect = dir.path().join("bad.lara");
        std::fs::write(&aspect, "aspectdef Bad\n    select function{ end\nend\n").unwrap();
        let err = weave_tree(&aspect, &[], &[dir.path().join("main.c")], &services())
            .err()
            .expect("a bad aspect fails");
        assert_eq!(err.status(), 2, "{err}");
        assert!(err.to_string().contains("bad.lara:2"), "{err}");
    }
}
