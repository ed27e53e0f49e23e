//! `weft select`.

use std::path::PathBuf;

use crate::engine::{EngineError, Host, Tuple, select_chain};
use crate::joinpoint::{JoinPoint, Value, catalogue};
use crate::output::{Selection, scan};
use crate::program::Program;

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
    let tuples = match select_chain(&args.chain, &mut program) {
        Ok(tuples) => tuples,
        Err(EngineError::Aspect(diagnostics)) => {
            eprint!("{diagnostics}");
            return Ok(2);
        }
        Err(other) => {
            eprint!("{other}");
            return Ok(1);
        }
    };
    let mut json = Vec::new();
    for tuple in &tuples {
        let Some((_, jp)) = tuple.last() else { continue };
        let attributes = attributes(&mut program, jp);
        if args.json {
            json.push(tuple_json(&mut program, tuple, attributes));
        } else {
            println!("{}", line(jp, &attributes));
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        eprintln!("{} match(es)", tuples.len());
    }
    Ok(0)
}

/// Every attribute of the join point's kind that has a value here.
fn attributes(host: &mut dyn Host, jp: &JoinPoint) -> Vec<(&'static str, Value)> {
    let Some(spec) = catalogue::kind(jp.kind) else {
        return Vec::new();
    };
    spec.all_attributes()
        .filter_map(|a| host.attribute(jp, a.name).ok().map(|v| (a.name, named(host, v))))
        .collect()
}

/// `value` with each join point that has a name shown as its name (a
/// loop's `state` lists its variables), the others as `<kind>`.
fn named(host: &mut dyn Host, value: Value) -> Value {
    match value {
        Value::JoinPoint(jp) => match host.attribute(&jp, "name") {
            Ok(Value::Str(name)) if !name.is_empty() => Value::Str(name),
            _ => Value::JoinPoint(jp),
        },
        Value::List(items) => Value::List(items.into_iter().map(|v| named(host, v)).collect()),
        other => other,
    }
}

/// `file:line: kind name=… rank=…`; the code itself is left out.
fn line(jp: &JoinPoint, attributes: &[(&'static str, Value)]) -> String {
    let get = |name: &str| attributes.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
    let place = match (get("file"), get("line")) {
        (Some(Value::Str(file)), Some(Value::Int(line))) => format!("{file}:{line}"),
        _ => "<program>".to_string(),
    };
    let shown: Vec<String> = attributes
        .iter()
        .filter(|(n, _)| !matches!(*n, "file" | "line" | "code"))
        .map(|(n, v)| format!("{n}={}", text(v)))
        .collect();
    format!("{place}: {} {}", jp.kind, shown.join(" "))
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

/// `{"kind", "attributes", "tuple": {name: {file, line}}}`.
fn tuple_json(host: &mut dyn Host, tuple: &Tuple, attributes: Vec<(&str, Value)>) -> serde_json::Value {
    let mut steps = serde_json::Map::new();
    for (name, jp) in tuple {
        let file = host.attribute(jp, "file").unwrap_or(Value::Null);
        let line = host.attribute(jp, "line").unwrap_or(Value::Null);
        steps.insert(
            name.clone(),
            serde_json::json!({ "kind": jp.kind, "file": json_value(&file), "line": json_value(&line) }),
        );
    }
    let kind = tuple.last().map_or("", |(_, jp)| jp.kind);
    let attributes: serde_json::Map<String, serde_json::Value> = attributes
        .iter()
        .map(|(n, v)| (n.to_string(), json_value(v)))
        .collect();
    serde_json::json!({ "kind": kind, "attributes": attributes, "tuple": steps })
}
