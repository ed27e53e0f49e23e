//! `weft select`.

/// List the join points a select chain matches.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft select` is not implemented yet")
}
