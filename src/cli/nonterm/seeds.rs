//! `weft nonterm seeds`: write the fuzzer inputs of
//! `weft_nonterm::dictionary::seeds` into a new directory, one file each.
//!
//! Exit status: 0 written; 2 the directory exists and is not empty, or a
//! file cannot be written.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The program's C files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The directory to write the inputs into (created; if it exists, it
    /// must be empty).
    #[arg(long, short)]
    output: PathBuf,
}

/// Writes the seeds and says how many.
pub fn run(args: &Args) -> anyhow::Result<i32> {
    for file in &args.files {
        if !file.is_file() {
            bail!("{}: not a readable file", file.display());
        }
    }
    empty_directory(&args.output)?;
    let files: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    let seeds = weft_nonterm::dictionary::seeds(&files);
    for (name, bytes) in &seeds {
        let path = args.output.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!("{} inputs written to {}", seeds.len(), args.output.display());
    Ok(0)
}

/// Creates `dir`, or accepts it when it exists and is empty, so that no
/// file of the user's is overwritten.
fn empty_directory(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        if entries.next().is_some() {
            bail!("{}: exists and is not empty", dir.display());
        }
        return Ok(());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}
