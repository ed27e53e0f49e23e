//! `readJSON` / `fileToJSON` and `writeJSON`: JSON files an aspect reads
//! and writes, within the run's `file` and `value-depth` limits.

use std::path::Path;

use rhai::{Array, Dynamic, Engine, Map};

use super::error::limit_failure;
use crate::Limits;
use crate::files::{read_text, write_whole};

type Fallible<T> = Result<T, Box<rhai::EvalAltResult>>;

/// Registers the JSON functions with the limits of this run.
pub fn register(engine: &mut Engine, limits: Limits) {
    for name in ["readJSON", "fileToJSON"] {
        engine.register_fn(name, move |path: &str| read_json(path, &limits));
    }
    engine.register_fn("writeJSON", move |path: &str, value: Dynamic| {
        write_json(path, &value, &limits)
    });
}

fn read_json(path: &str, limits: &Limits) -> Fallible<Dynamic> {
    let text =
        read_text(Path::new(path), limits.file_bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
    // serde_json refuses nesting deeper than 128 itself.
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not JSON: {e}"))?;
    rhai::serde::to_dynamic(json)
}

fn write_json(path: &str, value: &Dynamic, limits: &Limits) -> Fallible<()> {
    if limits.value_depth != 0 && deeper_than(value, limits.value_depth) {
        return Err(limit_failure(
            format!(
                "cannot write {path}: the value nests arrays and maps more than {} deep",
                limits.value_depth
            ),
            "value-depth",
        ));
    }
    let json: serde_json::Value = rhai::serde::from_dynamic(value)?;
    write_whole(Path::new(path), limits.file_bytes, |out| {
        serde_json::to_writer_pretty(&mut *out, &json)?;
        out.write_all(b"\n")
    })
    .map_err(|e| format!("cannot write {path}: {e}").into())
}

/// Whether `value` nests arrays and maps more than `max` deep (a scalar
/// is depth 0, `[1]` depth 1). The walk stops at `max`, so its own
/// recursion is bounded.
fn deeper_than(value: &Dynamic, max: u64) -> bool {
    let inner = |mut items: Box<dyn Iterator<Item = &Dynamic> + '_>| {
        max == 0 || items.any(|item| deeper_than(item, max - 1))
    };
    if let Some(array) = value.read_lock::<Array>() {
        inner(Box::new(array.iter()))
    } else if let Some(map) = value.read_lock::<Map>() {
        inner(Box::new(map.values()))
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_nested_arrays_and_maps() {
        let mut value = Dynamic::from(1_i64);
        for _ in 0..3 {
            let mut map = Map::new();
            map.insert("k".into(), Dynamic::from(vec![value]));
            value = map.into();
        }
        // Three maps, each holding an array: six levels.
        assert!(!deeper_than(&value, 6));
        assert!(deeper_than(&value, 5));
        assert!(!deeper_than(&Dynamic::from(Array::new()), 1));
        assert!(deeper_than(&Dynamic::from(Array::new()), 0));
    }
}
