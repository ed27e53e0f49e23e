//! The frequency report of the FREQ strategies (docs/strategies.md): how
//! often each variable was assigned in the runs of a program woven with
//! aspects/freq_report.lara, as `{"total": N, "function#var": count, …}`.

use std::collections::BTreeMap;

use super::{Kind, RangeSet};

/// The frequency report of `set`: `total`, the number of recorded
/// assignments, and per `function#variable` the number of assignments to it.
/// Only `write` entries count; entries of one `function#variable` in several
/// files add up, as in MANET's report (its key names no file). No variable
/// key can be `total`: every one contains `#`.
pub fn frequency_report(set: &RangeSet) -> BTreeMap<String, u64> {
    let mut report = BTreeMap::new();
    let mut total: u64 = 0;
    for (key, range) in set.ranges.iter().filter(|(k, _)| k.kind == Kind::Write) {
        total = total.saturating_add(range.count);
        let count = report
            .entry(format!("{}#{}", key.function, key.variable))
            .or_insert(0u64);
        *count = count.saturating_add(range.count);
    }
    report.insert("total".to_string(), total);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_writes_per_function_and_variable() {
        let dir = tempfile::tempdir().unwrap();
        let set = r#"{"format": "weft-ranges", "version": 1, "runs": [], "entries": [
            {"kind": "write", "file": "a.c", "function": "f", "variable": "x", "type": "i64", "count": 3, "min": 0, "max": 2, "nan": false},
            {"kind": "write", "file": "b.c", "function": "f", "variable": "x", "type": "i64", "count": 2, "min": 0, "max": 2, "nan": false},
            {"kind": "write", "file": "a.c", "function": "g", "variable": "y", "type": "f64", "count": 5, "min": 0.5, "max": 1.5, "nan": false},
            {"kind": "write", "file": "a.c", "function": "", "variable": "total", "type": "i64", "count": 1, "min": 0, "max": 0, "nan": false},
            {"kind": "param", "file": "a.c", "function": "g", "variable": "n", "type": "i64", "count": 9, "min": 1, "max": 1, "nan": false}
        ]}"#;
        let path = dir.path().join("set.json");
        std::fs::write(&path, set).unwrap();
        let set = super::super::load::read_path(&path).unwrap();
        let expected: BTreeMap<String, u64> = [("total", 11), ("f#x", 5), ("g#y", 5), ("#total", 1)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert_eq!(frequency_report(&set), expected);
    }
}
