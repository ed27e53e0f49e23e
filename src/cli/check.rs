//! `weft check`.

/// Check an aspect file for errors without weaving.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft check` is not implemented yet")
}
