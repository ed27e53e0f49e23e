//! Command-line interface. One file per subcommand; each owns its clap
//! arguments and returns the process exit status:
//! 0 success, 1 weaving (or the checked property) failed, 2 usage or aspect error.

mod check;
mod experiment;
mod files;
mod invariants;
mod joinpoints;
mod limits;
mod multiversion;
mod nonterm;
mod parse_health;
mod ranges;
mod report;
mod select;
mod transform;
mod tree;
mod triage;
mod weave;

use clap::{Parser, Subcommand};

/// weft: weave monitoring code and transformations into real C programs.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Weave(weave::Args),
    Check(check::Args),
    Select(select::Args),
    Joinpoints(joinpoints::Args),
    ParseHealth(parse_health::Args),
    Transform(transform::Args),
    Triage(triage::Args),
    #[command(subcommand)]
    Ranges(ranges::Command),
    #[command(subcommand)]
    Invariants(invariants::Command),
    #[command(subcommand)]
    Nonterm(nonterm::Command),
    Experiment(experiment::Args),
    Multiversion(multiversion::Args),
}

/// The exit status of a command whose errors are all bad input: the
/// error is printed and gives 2, so that a broken record or trace is never
/// mistaken for a finding (1).
fn bad_input_exits_2(result: anyhow::Result<i32>) -> i32 {
    result.unwrap_or_else(|err| {
        eprintln!("error: {err:#}");
        2
    })
}

/// Runs weft with the process arguments and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Weave(args) => weave::run(args),
        Command::Check(args) => check::run(args),
        Command::Select(args) => select::run(args),
        Command::Joinpoints(args) => joinpoints::run(args),
        Command::ParseHealth(args) => parse_health::run(args),
        Command::Transform(args) => transform::run(args),
        Command::Triage(args) => triage::run(args),
        Command::Ranges(command) => ranges::run(command),
        Command::Invariants(command) => invariants::run(command),
        Command::Nonterm(command) => nonterm::run(command),
        Command::Experiment(args) => experiment::run(args),
        Command::Multiversion(args) => multiversion::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            1
        }
    }
}
