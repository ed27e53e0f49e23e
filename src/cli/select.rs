//! `weft select`.

use std::io::Write;
use std::path::PathBuf;

use crate::engine::{EngineError, Match, describe_matches};
use crate::joinpoint::Value;
use crate::output::{Selection, scan};
use crate::program::Program;

use super::report::{self, Format, print};

/// List the join points a select chain matches, e.g.
/// `weft select 'function{"main"}.loop' src/`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The chain, as written after `select` in an aspect.
    pub chain: String,
    /// C files and directories (all `*.c` files below them).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print JSON instead of one line per match.
    #[arg(long)]
    pub json: bool,
}

/// Prints one line (or JSON object) per match: where the last join point
/// of the tuple is, its kind and attributes. Exit status 2 for a bad chain.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let entries = scan(&args.paths, &Selection::new(&[], &[])?)?;
    let mut program = Program::load(&entries, None)?;
    let matches = match describe_matches(&args.chain, &mut program) {
        Ok(matches) => Matches(matches),
        Err(EngineError::Aspect(diagnostics)) => {
            eprint!("{diagnostics}");
            return Ok(2);
        }
        Err(other) => {
            eprint!("{other}");
            return Ok(1);
        }
    };
    let format = Format::from_json_flag(args.json);
    print(&matches, format)?;
    if format == Format::Text {
        eprintln!("{} match(es)", matches.0.len());
    }
    Ok(0)
}

/// What a chain matched: one line per match, or a JSON array of
/// `{"kind", "attributes", "tuple": {name: {kind, file, line}}}`.
struct Matches(Vec<Match>);

impl report::Report for Matches {
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for m in &self.0 {
            writeln!(out, "{}", line(m))?;
        }
        Ok(())
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(self.0.iter().map(match_json).collect())
    }
}

/// `file:line: kind name=… rank=…`; the code itself is left out.
fn line(m: &Match) -> String {
    let place = match (m.attribute("file"), m.attribute("line")) {
        (Some(Value::Str(file)), Some(Value::Int(line))) => format!("{file}:{line}"),
        _ => "<program>".to_string(),
    };
    let shown: Vec<String> = m
        .attributes
        .iter()
        .filter(|(n, _)| !matches!(*n, "file" | "line" | "code"))
        .map(|(n, v)| format!("{n}={}", text(v)))
        .collect();
    format!("{place}: {} {}", m.joinpoint.kind, shown.join(" "))
}

fn text(value: &Value) -> String {
    match value {
        Value::Null => "-".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => format!("{s:?}"),
        Value::JoinPoint(jp) => format!("<{}>", jp.kind),
        Value::List(items) => format!("[{}]", items.iter().map(text).collect::<Vec<_>>().join(", ")),
    }
}

fn json_value(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => (*b).into(),
        Value::Int(i) => (*i).into(),
        Value::Float(f) => (*f).into(),
        Value::Str(s) => s.clone().into(),
        Value::JoinPoint(jp) => format!("<{}>", jp.kind).into(),
        Value::List(items) => items.iter().map(json_value).collect(),
    }
}

/// `{"kind", "attributes", "tuple": {name: {kind, file, line}}}`.
fn match_json(m: &Match) -> serde_json::Value {
    let steps: serde_json::Map<String, serde_json::Value> = m
        .steps
        .iter()
        .map(|s| {
            let step = serde_json::json!({ "kind": s.kind, "file": json_value(&s.file), "line": json_value(&s.line) });
            (s.name.clone(), step)
        })
        .collect();
    let attributes: serde_json::Map<String, serde_json::Value> = m
        .attributes
        .iter()
        .map(|(n, v)| (n.to_string(), json_value(v)))
        .collect();
    serde_json::json!({ "kind": m.joinpoint.kind, "attributes": attributes, "tuple": steps })
}
