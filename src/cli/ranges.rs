//! `weft ranges`.

/// Read, merge, learn and check range records.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Print range records as a table.
    Show {},
}

pub fn run(_command: Command) -> anyhow::Result<i32> {
    anyhow::bail!("`weft ranges` is not implemented yet")
}
