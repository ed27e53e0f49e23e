//! A set of ranges keyed by variable, and its JSON form (the format of
//! merged and learned range sets, see docs/ranges.md).

use super::key::{Key, Kind, ValueType};
use super::range::{Bounds, Range};
use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};
use std::collections::BTreeMap;

/// The `format` field of a range set file.
pub const FORMAT: &str = "weft-ranges";
/// The range set format version this weft writes and reads.
pub const VERSION: u32 = 1;

/// Ranges by variable, with the runs they came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RangeSet {
    pub ranges: BTreeMap<Key, Range>,
    /// Names of the runs (or inputs) merged into this set, for provenance.
    pub runs: Vec<String>,
}

impl RangeSet {
    /// Adds one entry's range, merging with what the set already holds.
    pub fn add(&mut self, key: Key, range: Range) {
        let slot = self.ranges.entry(key).or_insert(Range::EMPTY);
        *slot = slot.merge(&range);
    }

    /// Merges every range and run of `other` into `self`.
    pub fn merge(&mut self, other: &RangeSet) {
        for (key, range) in &other.ranges {
            self.add(key.clone(), *range);
        }
        self.runs.extend(other.runs.iter().cloned());
    }

    /// The set as JSON text (pretty, one entry per line group): its
    /// [`RangeSet::json_value`], what a range set file holds.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.json_value()).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The set as one JSON document: format, version, runs and entries.
    pub fn json_value(&self) -> Json {
        let entries: Vec<Json> = self
            .ranges
            .iter()
            .map(|(key, range)| {
                let (min, max) = match range.bounds {
                    Some(b) => (bound_json(b, true), bound_json(b, false)),
                    None => (Json::Null, Json::Null),
                };
                json!({
                    "kind": key.kind, "file": key.file, "function": key.function,
                    "variable": key.variable, "type": key.value_type,
                    "count": range.count, "min": min, "max": max, "nan": range.nan,
                })
            })
            .collect();
        json!({
            "format": FORMAT, "version": VERSION, "runs": self.runs, "entries": entries,
        })
    }

    /// Parses a range set written by [`RangeSet::to_json`]. The error says
    /// what is wrong, without the file name.
    pub fn from_json(text: &str) -> Result<RangeSet, String> {
        let doc: Document = serde_json::from_str(text).map_err(|e| format!("not a range set: {e}"))?;
        if doc.format != FORMAT {
            return Err(format!("format `{}`, expected `{FORMAT}`", doc.format));
        }
        if doc.version != VERSION {
            return Err(format!(
                "range set version {}, this weft reads version {VERSION}",
                doc.version
            ));
        }
        let mut set = RangeSet {
            runs: doc.runs,
            ..RangeSet::default()
        };
        for (i, e) in doc.entries.into_iter().enumerate() {
            let bounds = match (&e.min, &e.max) {
                (Json::Null, Json::Null) => None,
                (lo, hi) => Some(
                    parse_bounds(e.value_type, lo, hi)
                        .map_err(|m| format!("entry {i} ({}:{}): {m}", e.function, e.variable))?,
                ),
            };
            let key = Key {
                function: e.function,
                variable: e.variable,
                kind: e.kind,
                file: e.file,
                value_type: e.value_type,
            };
            let range = Range {
                count: e.count,
                bounds,
                nan: e.nan,
            };
            set.add(key, range);
        }
        Ok(set)
    }
}

#[derive(Deserialize, Serialize)]
struct Document {
    format: String,
    version: u32,
    #[serde(default)]
    runs: Vec<String>,
    entries: Vec<Entry>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    kind: Kind,
    file: String,
    function: String,
    variable: String,
    #[serde(rename = "type")]
    value_type: ValueType,
    count: u64,
    min: Json,
    max: Json,
    nan: bool,
}

/// Integers stay JSON integers (exact in serde_json); infinities, which
/// JSON numbers cannot hold, become the strings "inf" and "-inf".
fn bound_json(b: Bounds, lower: bool) -> Json {
    match (b, lower) {
        (Bounds::I64(v, _), true) | (Bounds::I64(_, v), false) => json!(v),
        (Bounds::U64(v, _), true) | (Bounds::U64(_, v), false) => json!(v),
        (Bounds::F64(v, _), true) | (Bounds::F64(_, v), false) => {
            if v.is_infinite() {
                json!(if v > 0.0 { "inf" } else { "-inf" })
            } else {
                json!(v)
            }
        }
    }
}

fn parse_bounds(ty: ValueType, lo: &Json, hi: &Json) -> Result<Bounds, String> {
    let bad = |v: &Json| format!("`{v}` is not a {ty} bound");
    let bounds = match ty {
        ValueType::I64 => Bounds::I64(
            lo.as_i64().ok_or_else(|| bad(lo))?,
            hi.as_i64().ok_or_else(|| bad(hi))?,
        ),
        ValueType::U64 => Bounds::U64(
            lo.as_u64().ok_or_else(|| bad(lo))?,
            hi.as_u64().ok_or_else(|| bad(hi))?,
        ),
        ValueType::F64 => {
            let f = |v: &Json| match v {
                Json::String(s) if s == "inf" => Some(f64::INFINITY),
                Json::String(s) if s == "-inf" => Some(f64::NEG_INFINITY),
                v => v.as_f64(),
            };
            Bounds::F64(f(lo).ok_or_else(|| bad(lo))?, f(hi).ok_or_else(|| bad(hi))?)
        }
    };
    if bounds.ordered() != bounds {
        return Err("min is greater than max".to_string());
    }
    Ok(bounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(var: &str, ty: ValueType) -> Key {
        Key {
            function: "f".into(),
            variable: var.into(),
            kind: Kind::Write,
            file: "a.c".into(),
            value_type: ty,
        }
    }

    #[test]
    fn json_round_trips_extreme_values() {
        let mut s = RangeSet::default();
        let r = |count, bounds, nan| Range { count, bounds, nan };
        s.add(
            key("i", ValueType::I64),
            r(1, Some(Bounds::I64(i64::MIN, i64::MAX)), false),
        );
        s.add(
            key("u", ValueType::U64),
            r(2, Some(Bounds::U64(0, u64::MAX)), false),
        );
        s.add(
            key("d", ValueType::F64),
            r(3, Some(Bounds::F64(f64::NEG_INFINITY, -0.0)), true),
        );
        s.add(key("n", ValueType::F64), r(1, None, true));
        s.runs.push("run-1".into());
        let back = RangeSet::from_json(&s.to_json()).unwrap();
        assert_eq!(back, s);
        let d = back.ranges[&key("d", ValueType::F64)].bounds;
        assert!(matches!(d, Some(Bounds::F64(_, hi)) if hi.is_sign_negative()));
    }

    #[test]
    fn bad_json_is_an_error() {
        assert!(RangeSet::from_json("{").is_err());
        assert!(RangeSet::from_json(r#"{"format":"x","version":1,"entries":[]}"#).is_err());
        let swapped = r#"{"format":"weft-ranges","version":1,"entries":[{"kind":"write",
            "file":"a.c","function":"f","variable":"x","type":"i64","count":1,
            "min":5,"max":1,"nan":false}]}"#;
        assert!(RangeSet::from_json(swapped).unwrap_err().contains("greater"));
    }
}
