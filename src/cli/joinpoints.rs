//! `weft joinpoints`.

/// Print the join point reference.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`weft joinpoints` is not implemented yet")
}
