//! Conversions between the host's [`Value`] and rhai's `Dynamic`, and the
//! JavaScript-like readings of values the scripts rely on.

use rhai::{Array, Dynamic, Map};

use std::sync::Arc;

use super::host::HostError;
use super::select::{Descent, Tuple};
use super::shared_host::SharedHost;
use crate::model::{JoinPoint, Value};

/// A join point as a rhai value (type name `joinpoint`).
#[derive(Debug, Clone, PartialEq)]
pub struct JpHandle(pub JoinPoint);

/// A host value as a rhai value.
pub fn to_dynamic(value: Value) -> Dynamic {
    match value {
        Value::Null => Dynamic::UNIT,
        Value::Bool(b) => b.into(),
        Value::Int(i) => i.into(),
        Value::Float(f) => f.into(),
        Value::Str(s) => s.into(),
        Value::JoinPoint(jp) => Dynamic::from(JpHandle(jp)),
        Value::List(items) => items.into_iter().map(to_dynamic).collect::<Array>().into(),
    }
}

/// A rhai value as a host value; maps and other script-only values become
/// their text.
pub fn to_value(value: &Dynamic) -> Value {
    if value.is_unit() {
        Value::Null
    } else if let Some(b) = value.clone().try_cast::<bool>() {
        Value::Bool(b)
    } else if let Some(i) = value.clone().try_cast::<rhai::INT>() {
        Value::Int(i)
    } else if let Some(f) = value.clone().try_cast::<rhai::FLOAT>() {
        Value::Float(f)
    } else if let Some(jp) = value.clone().try_cast::<JpHandle>() {
        Value::JoinPoint(jp.0)
    } else if let Some(items) = value.clone().try_cast::<Array>() {
        Value::List(items.iter().map(to_value).collect())
    } else {
        Value::Str(text(value))
    }
}

/// How a value reads inside C code (`[[expr]]`) or in printed text:
/// strings without quotes, `()` as nothing, whole floats without `.0`.
pub fn text(value: &Dynamic) -> String {
    if value.is_unit() {
        String::new()
    } else if let Some(f) = value.clone().try_cast::<rhai::FLOAT>() {
        if f.fract() == 0.0 && f.abs() < 1e15 {
            format!("{}", f as i64)
        } else {
            f.to_string()
        }
    } else if let Some(jp) = value.clone().try_cast::<JpHandle>() {
        format!("<{} join point>", jp.0.kind)
    } else {
        value.to_string()
    }
}

/// JavaScript truthiness: `()`, false, 0, NaN and "" are false.
pub fn truthy(value: &Dynamic) -> bool {
    if value.is_unit() {
        false
    } else if let Some(b) = value.clone().try_cast::<bool>() {
        b
    } else if let Some(i) = value.clone().try_cast::<rhai::INT>() {
        i != 0
    } else if let Some(f) = value.clone().try_cast::<rhai::FLOAT>() {
        f != 0.0 && !f.is_nan()
    } else if value.is_string() {
        !value.to_string().is_empty()
    } else {
        true
    }
}

/// What JavaScript's `for (k in v)` visits: a map's keys, an array's or a
/// string's indices.
pub fn keys(value: &Dynamic) -> Array {
    if let Some(map) = value.read_lock::<Map>() {
        map.keys().map(|k| Dynamic::from(k.to_string())).collect()
    } else if let Some(array) = value.read_lock::<Array>() {
        (0..array.len() as rhai::INT).map(Dynamic::from).collect()
    } else if value.is_string() {
        (0..value.to_string().chars().count() as rhai::INT)
            .map(Dynamic::from)
            .collect()
    } else {
        Array::new()
    }
}

/// Host value equality as filters use it: numbers compare by value, strings
/// compare with the text of non-strings.
pub fn compare(left: &Value, right: &Value) -> Option<std::cmp::Ordering> {
    use Value::*;
    let number = |v: &Value| match v {
        Int(i) => Some(*i as f64),
        Float(f) => Some(*f),
        Str(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match (left, right) {
        (Str(a), Str(b)) => Some(a.cmp(b)),
        (Bool(a), Bool(b)) => Some(a.cmp(b)),
        (Null, Null) => Some(std::cmp::Ordering::Equal),
        (JoinPoint(a), JoinPoint(b)) => (a == b).then_some(std::cmp::Ordering::Equal),
        (Int(_) | Float(_) | Str(_), Int(_) | Float(_) | Str(_)) => {
            number(left)?.partial_cmp(&number(right)?)
        }
        (Bool(b), Str(s)) | (Str(s), Bool(b)) => (b.to_string() == *s).then_some(std::cmp::Ordering::Equal),
        _ => None,
    }
}

/// The tuples of an apply as its loop iterates them (type name `tuples`):
/// each tuple becomes its rhai map only when the loop reaches it, so the
/// maps of a large file's join points never all live at once (they took
/// more memory than the file's syntax tree).
#[derive(Clone)]
pub enum Tuples {
    /// Tuples selected before the loop: the join of several selects.
    Ready(Vec<Tuple>),
    /// One select's tuples, selected as the loop asks for them: the walk
    /// down the chain and the apply's actions on each tuple visit a large
    /// file's chunks together, in one walk. An error of the walk ends the
    /// loop and goes to `failed`.
    Walked {
        descent: Descent,
        host: SharedHost,
        failed: Arc<dyn Fn(HostError) + Send + Sync>,
    },
}

impl IntoIterator for Tuples {
    type Item = Dynamic;
    type IntoIter = Box<dyn Iterator<Item = Dynamic> + Send + Sync>;

    fn into_iter(self) -> Self::IntoIter {
        match self {
            Tuples::Ready(tuples) => Box::new(tuples.into_iter().map(tuple_map)),
            Tuples::Walked {
                mut descent,
                mut host,
                failed,
            } => Box::new(std::iter::from_fn(move || match descent.next(&mut host)? {
                Ok(tuple) => Some(tuple_map(tuple)),
                Err(error) => {
                    failed(error);
                    None
                }
            })),
        }
    }
}

/// The rhai map of a tuple: a map from the names written in the select
/// chain to join point handles.
pub fn tuple_map(tuple: Tuple) -> Dynamic {
    let map: Map = tuple
        .into_iter()
        .map(|(name, jp)| (name.into(), Dynamic::from(JpHandle(jp))))
        .collect();
    map.into()
}
