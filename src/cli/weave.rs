//! `weft weave`.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};

use crate::engine::{EngineError, Host};
use crate::output::{self, Selection};
use crate::program::Program;

/// Weave an aspect into C files and write the woven tree.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The aspect file to run.
    #[arg(long, value_name = "FILE")]
    aspect: PathBuf,
    /// An argument of the aspect (repeatable).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// Directory to write the woven tree to (replaced as a whole).
    #[arg(long, value_name = "DIR", required_unless_present = "diff")]
    output: Option<PathBuf>,
    /// Weave only the .c files matching this glob (repeatable; default `*.c`),
    /// relative to the input directory.
    #[arg(long, value_name = "GLOB")]
    include: Vec<String>,
    /// Do not weave the files matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Print a unified diff of the woven files instead of writing them.
    #[arg(long)]
    diff: bool,
    /// Extra macro definitions for the front end.
    #[arg(long = "macro-file", value_name = "F")]
    macro_file: Option<PathBuf>,
    /// C files and directories to weave; directories are mirrored.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// Why `weft weave` stopped, deciding its exit status.
enum Failure {
    /// Bad command line or aspect (status 2).
    Usage(anyhow::Error),
    /// Weaving failed (status 1).
    Weave(anyhow::Error),
    /// An error already rendered as a diagnostic (`error: …` with its
    /// location), printed as it is, with its exit status.
    Diagnosed { status: i32, rendered: String },
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    match weave(&args) {
        Ok(()) => Ok(0),
        Err(Failure::Usage(err)) => {
            eprintln!("error: {err:#}");
            Ok(2)
        }
        Err(Failure::Weave(err)) => {
            eprintln!("error: {err:#}");
            Ok(1)
        }
        Err(Failure::Diagnosed { status, rendered }) => {
            eprintln!("{}", rendered.trim_end());
            Ok(status)
        }
    }
}

fn weave(args: &Args) -> Result<(), Failure> {
    let aspect_args = parse_args(&args.args).map_err(Failure::Usage)?;
    let selection = Selection::new(&args.include, &args.exclude).map_err(Failure::Usage)?;
    if let Some(out) = &args.output {
        check_output_outside_inputs(out, &args.paths).map_err(Failure::Usage)?;
    }
    if let Some(file) = &args.macro_file
        && !file.is_file()
    {
        return Err(Failure::Usage(anyhow!(
            "macro file `{}` does not exist",
            file.display()
        )));
    }
    let entries = output::scan(&args.paths, &selection).map_err(Failure::Usage)?;
    let mut program = Program::load(&entries, args.macro_file.as_deref()).map_err(Failure::Weave)?;
    run_aspect(&args.aspect, &aspect_args, &mut program)?;
    program.commit().map_err(|e| Failure::Weave(anyhow!("{e}")))?;

    let woven = program.woven();
    if args.diff {
        for file in program.files() {
            if let Some(new) = woven.get(&file.path) {
                let old = std::fs::read_to_string(&file.path)
                    .with_context(|| format!("cannot read `{}`", file.path.display()))
                    .map_err(Failure::Weave)?;
                print!("{}", output::unified_diff(&file.path, &old, new));
            }
        }
        return Ok(());
    }
    let out = args
        .output
        .as_deref()
        .ok_or_else(|| Failure::Usage(anyhow!("--output DIR is required unless --diff is given")))?;
    output::write_tree(&entries, &woven, out).map_err(Failure::Weave)
}

/// `NAME=VALUE` pairs of `--arg`.
fn parse_args(raw: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    raw.iter()
        .map(|a| match a.split_once('=') {
            Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
            _ => bail!("--arg `{a}` is not of the form NAME=VALUE"),
        })
        .collect()
}

/// Refuses an output directory inside an input directory: the next run
/// would weave the previous output.
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

/// Loads the aspect and runs it against the program. Errors in the aspect
/// itself are usage errors; failures while running are weaving failures.
fn run_aspect(aspect: &Path, args: &[(String, String)], host: &mut dyn Host) -> Result<(), Failure> {
    let diagnosed = |status, rendered: String| Failure::Diagnosed { status, rendered };
    let module = crate::aspect::load(aspect).map_err(|d| diagnosed(2, d.to_string()))?;
    let report = crate::engine::run(&module, None, args, host).map_err(|e| match e {
        EngineError::Aspect(d) => diagnosed(2, d.to_string()),
        other => diagnosed(1, other.to_string()),
    })?;
    for warning in &report.warnings {
        eprintln!("warning: {}: {}", warning.c_location, warning.message);
    }
    Ok(())
}
