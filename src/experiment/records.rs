//! Reading the range records a monitored run leaves in its `$WEFT_OUT`.
//!
//! This is the study's only contact with the record format: every other
//! part of the harness sees a [`RangeSet`] per run.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;

/// Observed `[min, max]` per monitored variable of one run (or of several
/// runs, merged).
pub type RangeSet = BTreeMap<String, (f64, f64)>;

/// Merges `other` into `into`: the union of the observed intervals.
pub fn merge(into: &mut RangeSet, other: &RangeSet) {
    for (name, &(lo, hi)) in other {
        into.entry(name.clone())
            .and_modify(|r| *r = (r.0.min(lo), r.1.max(hi)))
            .or_insert((lo, hi));
    }
}

/// Reads every `*.ranges` file in `dir` and merges them.
///
/// Each non-empty line is `NAME MIN MAX` (whitespace-separated, `#` starts a
/// comment). A missing directory means the run monitored nothing.
pub fn read_run_ranges(dir: &Path) -> anyhow::Result<RangeSet> {
    let mut set = RangeSet::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(set);
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ranges"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read range record {}", file.display()))?;
        let mut one = RangeSet::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = || anyhow::anyhow!("{}:{}: expected `NAME MIN MAX`", file.display(), n + 1);
            let mut f = line.split_whitespace();
            let (Some(name), Some(lo), Some(hi), None) = (f.next(), f.next(), f.next(), f.next()) else {
                return Err(bad());
            };
            let lo: f64 = lo.parse().map_err(|_| bad())?;
            let hi: f64 = hi.parse().map_err(|_| bad())?;
            merge(&mut one, &RangeSet::from([(name.to_string(), (lo, hi))]));
        }
        merge(&mut set, &one);
    }
    Ok(set)
}
