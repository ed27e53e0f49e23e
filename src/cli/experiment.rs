//! `weft experiment`.

/// Run a fault-detection study.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft experiment` is not implemented yet")
}
