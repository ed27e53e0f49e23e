//! `--limit NAME=VALUE`: the resource limits of an aspect, shared by
//! `weft weave` and `weft check`.

use crate::Limits;

/// The limits an aspect runs and is checked within.
#[derive(clap::Args, Debug)]
pub struct LimitArgs {
    /// Change a limit of the aspect (repeatable): operations, cpu-seconds,
    /// call-levels, expression-depth, string, array, map, file,
    /// value-depth. VALUE is a count with an optional K, M or G (×1024);
    /// 0 lifts the limit. Defaults: docs/aspect-language.md, "Limits".
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    limits: Vec<String>,
}

impl LimitArgs {
    /// The defaults changed by the settings given.
    pub fn limits(&self) -> anyhow::Result<Limits> {
        Ok(Limits::with_settings(&self.limits)?)
    }
}
