//! `weft weave`.

/// Weave an aspect into C files and write the woven tree.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft weave` is not implemented yet")
}
