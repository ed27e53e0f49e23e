//! `weft transform`.

/// Run transformation passes over C files.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft transform` is not implemented yet")
}
