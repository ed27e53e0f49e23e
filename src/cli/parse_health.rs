//! `weft parse-health`.

/// Report how much of a C tree the front end understands.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft parse-health` is not implemented yet")
}
