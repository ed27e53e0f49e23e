//! `weft joinpoints`: the join point reference generated from the catalogue.

use crate::joinpoint::{catalogue, reference};

/// Print the join point reference (kinds, attributes, actions).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print Markdown (without KIND: exactly docs/joinpoints.md).
    #[arg(long)]
    markdown: bool,
    /// Only this kind (canonical name or alias).
    kind: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let only = match &args.kind {
        None => None,
        Some(name) => match catalogue::kind(name) {
            Some(spec) => Some(spec),
            None => {
                let hint = catalogue::suggest(catalogue::kind_names(), name)
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                eprintln!("error: no join point kind `{name}`{hint}");
                return Ok(2);
            }
        },
    };
    let out = match (args.markdown, only) {
        (true, None) => reference::markdown(),
        (true, Some(spec)) => {
            let mut section = String::new();
            reference::kind_markdown(&mut section, spec);
            section
        }
        (false, only) => reference::text(only),
    };
    print!("{out}");
    Ok(0)
}
