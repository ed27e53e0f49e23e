//! `weft nonterm`: read the reports of loops woven with
//! aspects/nonterm.lara (`show`), or weave, build and run a program to
//! find its non-terminating loops in one step (`check`), or find static
//! recurrence conditions with an SMT solver (`analyse`), or write a
//! fuzzer's first inputs for the SV-COMP harness (`seeds`).

mod analyse;
mod check;
mod seeds;
mod show;

use std::path::PathBuf;

/// Find loops that never end: statically (`analyse`), by weaving a
/// monitor and running the program (`check`), and read the monitor's
/// reports (`show`).
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Print every report under the given directories (searched for
    /// *.nonterm) or files: the loop, whether its state was exact, the
    /// iteration and period of the cycle, and the witness values.
    Show {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Print JSON instead: one object per report.
        #[arg(long)]
        json: bool,
    },
    /// Weave the non-termination monitor into C files, build them with the
    /// system C compiler, run the program, and say which loops were
    /// monitored and which did not terminate, with the witness.
    Check(check::Args),
    /// Find, for each loop of C files in the integer fragment, a
    /// sufficient recurrence condition (SRC): a condition on the state at
    /// the loop head under which the loop provably never ends, found and
    /// checked with an SMT solver (z3 or cvc5); or say why there is none.
    Analyse(analyse::Args),
    /// Write a fuzzer's first inputs for an SV-COMP-style program into a
    /// new directory: the program's integer constants as the bytes of
    /// `__VERIFIER_nondet_*()` values, which the `--svcomp` harness reads
    /// from the file named by WEFT_NONDET_INPUT (`-`: standard input).
    Seeds(seeds::Args),
}

/// Runs a `weft nonterm` subcommand.
pub fn run(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::Show { inputs, json } => show::show(&inputs, json),
        Command::Check(args) => check::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Seeds(args) => Ok(super::bad_input_exits_2(seeds::run(&args))),
    }
}
