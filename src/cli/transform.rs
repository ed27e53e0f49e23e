//! `weft transform`.

use anyhow::anyhow;

use super::tree::{self, Failure, TreeArgs};
use crate::engine::Host;
use crate::joinpoint::JoinPoint;
use crate::transform::{canonical_name, pass_names, prepare_program};

/// Run behaviour-preserving transformation passes over C files and write
/// the transformed tree.
///
/// Passes run in the order given, each on the result of the previous one.
/// Places a pass leaves alone because rewriting them might change
/// behaviour are listed on stderr as `PASS: file:line: reason`.
#[derive(clap::Args, Debug)]
#[command(after_help = passes_help())]
pub struct Args {
    /// Passes to run, in order (comma-separated or repeated); names and
    /// aliases are case-insensitive; `all` runs the five in the order below.
    #[arg(long = "pass", value_name = "NAME", value_delimiter = ',', required = true)]
    passes: Vec<String>,
    #[command(flatten)]
    tree: TreeArgs,
}

/// The pass list shown under `--help`.
fn passes_help() -> String {
    let mut help = String::from("Passes (MANET's PrepareProgram order):\n");
    for (name, aliases) in pass_names() {
        help.push_str("  ");
        help.push_str(name);
        if !aliases.is_empty() {
            help.push_str(&format!(" (alias: {})", aliases.join(", ")));
        }
        help.push('\n');
    }
    help.push_str("\nSee docs/transforms.md for what each pass rewrites and leaves alone.");
    help
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    Ok(tree::exit_status(transform(&args)))
}

fn transform(args: &Args) -> Result<(), Failure> {
    let mut passes: Vec<&'static str> = Vec::new();
    for pass in &args.passes {
        if pass.trim().eq_ignore_ascii_case("all") {
            passes.extend(prepare_program());
        } else {
            passes.push(canonical_name(pass.trim()).map_err(|e| Failure::Usage(e.into()))?);
        }
    }
    let (mut program, entries) = tree::load(&args.tree, &[])?;
    for pass in passes {
        let already = program.skipped().len();
        program
            .perform(&JoinPoint::program(), pass, &[])
            .map_err(|e| Failure::Failed(anyhow!("{e}")))?;
        program.commit();
        for skipped in &program.skipped()[already..] {
            eprintln!("{skipped}");
        }
    }
    tree::finish(&args.tree, program, &entries)
}
