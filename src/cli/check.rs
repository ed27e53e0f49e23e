//! `weft check`.

use std::path::PathBuf;

/// Check an aspect file for errors without weaving: syntax, imports, called
/// aspects, and the join point kinds and attribute names written in it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The aspect file.
    pub file: PathBuf,
}

/// Prints every problem found; exit status 0 if there are none, 2 if any.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let diagnostics = match crate::aspect::load(&args.file) {
        Ok(module) => {
            let diagnostics = crate::engine::check(&module);
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
