//! `weft check`.

use std::path::PathBuf;

use super::limits::LimitArgs;

/// Check an aspect file for errors without weaving: syntax, imports, called
/// aspects, and the join point kinds and attribute names written in it;
/// the same checks `weft weave` makes before it runs the aspect.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The aspect file.
    pub file: PathBuf,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Prints every problem found; exit status 0 if there are none, 2 if any.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let limits = match args.limits.limits() {
        Ok(limits) => limits,
        Err(err) => {
            eprintln!("error: {err:#}");
            return Ok(2);
        }
    };
    let diagnostics = match crate::aspect::load(&args.file, &limits) {
        Ok(module) => {
            let diagnostics = crate::engine::check(&module, &limits);
            if !diagnostics.has_errors() {
                let names: Vec<&str> = module.aspects.iter().map(|a| a.name.name.as_str()).collect();
                println!("{}: ok ({})", args.file.display(), names.join(", "));
                return Ok(0);
            }
            diagnostics
        }
        Err(diagnostics) => diagnostics,
    };
    eprint!("{diagnostics}");
    Ok(2)
}
