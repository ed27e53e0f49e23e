//! `weft weave`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;

use super::limits::LimitArgs;
use super::tree::{self, Failure, TreeArgs};
use weft_weave::Services;

use crate::engine::Warning;

/// Weave an aspect into C files and write the woven tree.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  weft weave --aspect aspects/ascv3.lara --output woven examples/range-monitoring
  weft weave --aspect aspects/freq.lara --arg report=freq.json --exclude 'lib/**' --output woven gzip-1.12
  weft weave --aspect my.lara --diff src/main.c

Woven files get a fresh modification time; every other file is copied with its
mode, links and modification time, so the woven tree builds with the program's
own unchanged build. An aspect asking for a loop's `src` needs an SMT solver (z3
or cvc5) on $PATH. Exit status: 0 woven, 1 weaving failed, 2 usage or aspect
error, or no solver for `src`.")]
pub struct Args {
    /// The aspect file to run.
    #[arg(long, value_name = "FILE")]
    aspect: PathBuf,
    /// An argument of the aspect (repeatable).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// The SMT solver that finds the `src` attributes of loops: z3 or cvc5
    /// (default: z3 if on $PATH, else cvc5). Looked for only when an
    /// aspect asks for `src`.
    #[arg(long, value_parser = ["z3", "cvc5"])]
    solver: Option<String>,
    /// Seconds each solver query may take.
    #[arg(long = "solver-timeout", default_value_t = 10.0, value_name = "S")]
    solver_timeout: f64,
    /// Fail (exit status 1, nothing written) when any insert is refused or
    /// a transformation leaves any place alone, instead of warning.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    tree: TreeArgs,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    Ok(tree::exit_status(weave(&args)))
}

fn weave(args: &Args) -> Result<(), Failure> {
    let aspect_args = parse_args(&args.args).map_err(Failure::Usage)?;
    let diagnosed = |status, rendered: String| Failure::Diagnosed { status, rendered };
    let limits = args.limits.limits().map_err(Failure::Usage)?;
    let module = crate::aspect::load(&args.aspect, &limits).map_err(|d| diagnosed(2, d.to_string()))?;
    // The aspect and the files it imports are inputs the output must not hold.
    let aspect_files: Vec<PathBuf> = module.files.iter().map(|f| f.path.clone()).collect();
    let (mut program, entries) = tree::load(&args.tree, &aspect_files)?;
    let kind = args.solver.as_deref().and_then(weft_smt::Kind::parse);
    let timeout = Duration::from_secs_f64(args.solver_timeout.max(0.001));
    let services = Services {
        apis: weft_monitor::SCRIPT_APIS,
        loops: Some(Arc::new(weft_loops::SolverAnalysis::new(kind, timeout))),
        limits,
        echo: true,
    };
    let report = weft_weave::weave(&module, &aspect_args, &mut program, &services).map_err(|e| {
        Failure::Diagnosed {
            status: e.status(),
            rendered: e.to_string(),
        }
    })?;
    let left_out = LeftOut::of(&report.warnings, program.skipped());
    left_out.print(args.strict);
    if args.strict && !left_out.is_empty() {
        return Err(Failure::Failed(anyhow::anyhow!(
            "--strict: {}; nothing written",
            left_out.summary()
        )));
    }
    tree::finish(&args.tree, program, &entries)
}

/// `NAME=VALUE` pairs of `--arg`.
fn parse_args(raw: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    raw.iter()
        .map(|a| match a.split_once('=') {
            Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
            _ => bail!("--arg `{a}` is not of the form NAME=VALUE"),
        })
        .collect()
}

/// Refused inserts shown in full for each insert of the aspect and reason;
/// the rest are counted, so a large program does not bury the output.
const WARNINGS_SHOWN_PER_INSERT: usize = 3;

/// Places listed in the closing summary before it says how many more.
const PLACES_LISTED: usize = 10;

/// What the aspect asked for and weft did not do: inserts refused, places
/// transformations left alone.
struct LeftOut<'a> {
    refused: &'a [Warning],
    skipped: &'a [String],
}

impl<'a> LeftOut<'a> {
    fn of(refused: &'a [Warning], skipped: &'a [String]) -> LeftOut<'a> {
        LeftOut { refused, skipped }
    }

    fn is_empty(&self) -> bool {
        self.refused.is_empty() && self.skipped.is_empty()
    }

    /// `3 inserts refused, 1 place left alone by transformations`.
    fn summary(&self) -> String {
        let mut parts = Vec::new();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if !self.refused.is_empty() {
            let n = self.refused.len();
            parts.push(format!("{n} insert{} refused", plural(n)));
        }
        if !self.skipped.is_empty() {
            let n = self.skipped.len();
            parts.push(format!("{n} place{} left alone by transformations", plural(n)));
        }
        parts.join(", ")
    }

    /// Each refused insert at its insert in the aspect (see
    /// [`print_warnings`]), each place a transformation left alone, and a
    /// closing count with the C locations of the refused inserts (and,
    /// unless `strict`, how to make them an error).
    fn print(&self, strict: bool) {
        print_warnings(self.refused);
        for skipped in self.skipped.iter().take(PLACES_LISTED) {
            eprintln!("warning: {skipped}");
        }
        if self.skipped.len() > PLACES_LISTED {
            eprintln!(
                "warning: {} more places left alone by transformations",
                self.skipped.len() - PLACES_LISTED
            );
        }
        if self.is_empty() {
            return;
        }
        let mut at: Vec<&str> = self.refused.iter().map(|w| w.c_location.as_str()).collect();
        let more = at.len().saturating_sub(PLACES_LISTED);
        at.truncate(PLACES_LISTED);
        let listed = match (at.is_empty(), more) {
            (true, _) => String::new(),
            (false, 0) => format!(" (at {})", at.join(", ")),
            (false, more) => format!(" (at {}, and {more} more)", at.join(", ")),
        };
        let hint = if strict {
            ""
        } else {
            "; `--strict` makes this an error"
        };
        eprintln!("warning: {}{listed}{hint}", self.summary());
    }
}

/// Prints each refused insert at the insert in the aspect, with the C
/// location and the reason in its message, at most
/// [`WARNINGS_SHOWN_PER_INSERT`] per insert and reason, then how many more.
fn print_warnings(warnings: &[Warning]) {
    let mut seen: Vec<(Option<String>, &str, usize)> = Vec::new();
    for warning in warnings {
        let key = (warning.diagnostic.location(), warning.message.as_str());
        let index = match seen
            .iter()
            .position(|(at, reason, _)| (at, reason) == (&key.0, &key.1))
        {
            Some(i) => i,
            None => {
                seen.push((key.0, key.1, 0));
                seen.len() - 1
            }
        };
        seen[index].2 += 1;
        if seen[index].2 <= WARNINGS_SHOWN_PER_INSERT {
            eprint!("{}", warning.diagnostic.render());
        }
    }
    for (at, reason, count) in seen.iter().filter(|(_, _, n)| *n > WARNINGS_SHOWN_PER_INSERT) {
        eprintln!(
            "warning: {} more inserts refused by the insert at {}: {reason}",
            count - WARNINGS_SHOWN_PER_INSERT,
            at.as_deref().unwrap_or("the aspect"),
        );
    }
}
