//! What a select chain matched, described for a reader (`weft select`):
//! each match's join point with every attribute its kind has a value for,
//! and where each step of its tuple is.

use super::host::Host;
use super::{EngineError, select_chain};
use crate::model::{JoinPoint, Value, catalogue};

/// One match of a chain: its last join point, described.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// The matched (last) join point.
    pub joinpoint: JoinPoint,
    /// Every attribute of its kind that has a value here, in the
    /// catalogue's order; a join point with a name is shown as its name.
    pub attributes: Vec<(&'static str, Value)>,
    /// Each step of the tuple, as the chain names it.
    pub steps: Vec<Step>,
}

/// Where one step of a matched tuple is.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The step's name in the chain.
    pub name: String,
    /// Its join point's kind.
    pub kind: &'static str,
    /// Its `file` attribute, or [`Value::Null`].
    pub file: Value,
    /// Its `line` attribute, or [`Value::Null`].
    pub line: Value,
}

impl Match {
    /// The value of attribute `name`, if it has one here.
    pub fn attribute(&self, name: &str) -> Option<&Value> {
        self.attributes.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

/// The matches of `chain` in `host` (see [`select_chain`]), described.
pub fn describe_matches(chain: &str, host: &mut dyn Host) -> Result<Vec<Match>, EngineError> {
    let tuples = select_chain(chain, host)?;
    let mut matches = Vec::with_capacity(tuples.len());
    for tuple in tuples {
        let Some((_, jp)) = tuple.last() else { continue };
        let attributes = attributes(host, jp);
        let steps = tuple
            .iter()
            .map(|(name, jp)| Step {
                name: name.clone(),
                kind: jp.kind,
                file: host.attribute(jp, "file").unwrap_or(Value::Null),
                line: host.attribute(jp, "line").unwrap_or(Value::Null),
            })
            .collect();
        matches.push(Match {
            joinpoint: jp.clone(),
            attributes,
            steps,
        });
    }
    Ok(matches)
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
/// loop's `state` lists its variables), the others as they are.
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
