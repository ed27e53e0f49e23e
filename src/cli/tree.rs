//! What `weft weave` and `weft transform` share: the input tree and output
//! arguments, loading the program, presenting the result, exit statuses.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};

use crate::output::{self, Entry, Selection};
use crate::program::Program;

/// Input paths, file selection, front-end options and where the result goes.
#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    /// Directory to write the resulting tree to, replaced as a whole: it must
    /// be new, empty, or written by weft before (it then holds .weft-output),
    /// and must not hold any input.
    #[arg(long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// Process only the .c files matching this glob (repeatable; default
    /// `*.c`), relative to the input directory.
    #[arg(long, value_name = "GLOB")]
    include: Vec<String>,
    /// Do not process the files matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Print a unified diff of the changed files instead of writing them.
    #[arg(long)]
    diff: bool,
    /// Extra macro definitions for the front end.
    #[arg(long = "macro-file", value_name = "F")]
    macro_file: Option<PathBuf>,
    /// Directory searched for `#include "…"` project headers, after the
    /// directories of the C files themselves (repeatable).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// C files and directories to process; directories are mirrored.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// Why a command stopped, deciding its exit status.
pub enum Failure {
    /// Bad command line or aspect (status 2).
    Usage(anyhow::Error),
    /// The work itself failed (status 1).
    Failed(anyhow::Error),
    /// An error already rendered as a diagnostic (`error: …` with its
    /// location), printed as it is, with its exit status.
    Diagnosed { status: i32, rendered: String },
}

/// The exit status of a run: 0, or the failure reported on stderr.
pub fn exit_status(result: Result<(), Failure>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(Failure::Usage(err)) => {
            eprintln!("error: {err:#}");
            2
        }
        Err(Failure::Failed(err)) => {
            eprintln!("error: {err:#}");
            1
        }
        Err(Failure::Diagnosed { status, rendered }) => {
            eprintln!("{}", rendered.trim_end());
            status
        }
    }
}

/// The program made of the selected C files of the input tree, and the
/// entries of that tree (to write it back). `protected` are other inputs
/// of the run (the aspect) that the output must not replace.
pub fn load(args: &TreeArgs, protected: &[PathBuf]) -> Result<(Program, Vec<Entry>), Failure> {
    let selection = Selection::new(&args.include, &args.exclude).map_err(Failure::Usage)?;
    if args.output.is_none() && !args.diff {
        return Err(Failure::Usage(anyhow!(
            "nowhere to put the result: give --output DIR to write the woven tree, or --diff to print the changes"
        )));
    }
    if let Some(out) = &args.output {
        check_output_outside_inputs(out, &args.paths).map_err(Failure::Usage)?;
        let mut inputs = args.paths.clone();
        inputs.extend(protected.iter().cloned());
        output::check_claim(out, &inputs, "output").map_err(Failure::Usage)?;
    }
    if let Some(file) = &args.macro_file
        && !file.is_file()
    {
        return Err(Failure::Usage(anyhow!(
            "macro file `{}` does not exist",
            file.display()
        )));
    }
    if let Some(dir) = args.include_dirs.iter().find(|d| !d.is_dir()) {
        return Err(Failure::Usage(anyhow!(
            "include directory `{}` does not exist",
            dir.display()
        )));
    }
    let entries = output::scan(&args.paths, &selection).map_err(Failure::Usage)?;
    warn_unselected_inputs(&args.paths, &entries);
    let mut program = Program::load(&entries, args.macro_file.as_deref()).map_err(Failure::Failed)?;
    program.add_include_dirs(&args.include_dirs);
    warn_not_understood(&mut program);
    Ok((program, entries))
}

/// Says, on stderr, which files named on the command line are not woven
/// because the selection (`--include`, default `*.c`) leaves them out: a
/// user naming a file expects it woven, and would otherwise see nothing.
fn warn_unselected_inputs(paths: &[PathBuf], entries: &[Entry]) {
    let unselected = entries
        .iter()
        .filter(|e| e.kind == output::EntryKind::File { weave: false } && paths.contains(&e.source));
    for entry in unselected {
        eprintln!(
            "warning: `{}` is copied, not woven: its name does not match --include (default `*.c`)",
            entry.source.display()
        );
    }
}

/// Says, on stderr, how much C the front end did not understand: those
/// regions are left as written, and a user must not mistake them for code
/// the aspect had nothing to do in.
pub(crate) fn warn_not_understood(program: &mut Program) {
    let files = program.files();
    let with_problems: Vec<_> = files.iter().filter(|f| !f.problems.is_empty()).collect();
    let Some(first) = with_problems.first() else {
        return;
    };
    let regions: usize = with_problems.iter().map(|f| f.problems.len()).sum();
    let problem = &first.problems[0];
    eprintln!(
        "warning: {regions} region{} in {} file{} not understood, left as written (first: {}:{}: {}); `weft parse-health` lists them and their likely macros",
        if regions == 1 { "" } else { "s" },
        with_problems.len(),
        if with_problems.len() == 1 { "" } else { "s" },
        first.path.display(),
        problem.line,
        problem.reason.trim_start_matches("not understood: "),
    );
}

/// Commits the program and writes the tree with its changed files (or
/// prints their diffs with `--diff`).
pub fn finish(args: &TreeArgs, mut program: Program, entries: &[Entry]) -> Result<(), Failure> {
    program.commit();
    if args.diff {
        for (path, old, new) in program.changes() {
            print!("{}", output::unified_diff(path, old, new));
        }
        return Ok(());
    }
    let changed = program.woven();
    let out = args
        .output
        .as_deref()
        .ok_or_else(|| Failure::Usage(anyhow!("--output DIR is required unless --diff is given")))?;
    output::write_tree(entries, &changed, out).map_err(Failure::Failed)
}

/// Refuses an output directory inside an input directory: the next run
/// would process the previous output.
fn check_output_outside_inputs(out: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let out = absolute(out);
    for input in inputs {
        let resolved = input.canonicalize().unwrap_or_else(|_| absolute(input));
        if input.is_dir() && (out.starts_with(&resolved) || out.starts_with(absolute(input))) {
            bail!("output `{}` is inside input `{}`", out.display(), input.display());
        }
    }
    Ok(())
}
