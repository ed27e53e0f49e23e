//! Learning ranges from training runs: merge a seeded random P% of them
//! (the report's §3.1.2).

use super::error::RangesError;
use super::load::{read_file, read_record, record_files, record_set};
use super::record;
use super::set::RangeSet;
use std::collections::BTreeMap;
use std::path::Path;

/// One training run and its ranges.
#[derive(Debug, Clone)]
pub struct Run {
    pub name: String,
    pub set: RangeSet,
}

/// The runs under `dir`: each immediate subdirectory holding record files is
/// one run (all its records, recursively: every unit and forked process of
/// one execution); record files directly in `dir` are grouped into runs by
/// the process id in their header. Runs come sorted by name.
pub fn discover_runs(dir: &Path) -> Result<Vec<Run>, RangesError> {
    let io = |cause| RangesError::Io {
        path: dir.to_path_buf(),
        cause,
    };
    let mut runs = Vec::new();
    let mut loose: BTreeMap<i64, RangeSet> = BTreeMap::new();
    let mut children: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(io)?;
    children.sort_by_key(|e| e.file_name());
    for child in children {
        let path = child.path();
        if path.is_dir() {
            let files = record_files(&path)?;
            if files.is_empty() {
                continue;
            }
            let mut set = RangeSet::default();
            for file in &files {
                set.merge(&read_file(file)?);
            }
            set.runs.clear();
            let name = path.display().to_string();
            set.runs.push(name.clone());
            runs.push(Run { name, set });
        } else if path.extension().is_some_and(|x| x == record::EXTENSION) {
            let record = read_record(&path)?;
            let pid = record.pid;
            let mut set = record_set(record, &path);
            set.runs.clear();
            loose.entry(pid).or_default().merge(&set);
        }
    }
    for (pid, mut set) in loose {
        let name = format!("{}/pid-{pid}", dir.display());
        set.runs.push(name.clone());
        runs.push(Run { name, set });
    }
    if runs.is_empty() {
        return Err(RangesError::Empty {
            path: dir.to_path_buf(),
        });
    }
    Ok(runs)
}

/// How many of `n` runs make `percent`% (rounded up, at least one).
pub fn sample_size(n: usize, percent: f64) -> usize {
    let k = (n as f64 * percent / 100.0).ceil() as usize;
    k.clamp(1, n.max(1)).min(n)
}

/// The indices of a seeded random choice of `k` out of `n`, in increasing
/// order: the same for the same seed on every platform and weft version.
pub fn sample(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut rng = SplitMix64(seed);
    let mut all: Vec<usize> = (0..n).collect();
    // A partial Fisher-Yates shuffle: the first k places are the choice.
    for i in 0..k.min(n) {
        let j = i + rng.below((n - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(k.min(n));
    all.sort_unstable();
    all
}

/// Merges a seeded random `percent`% of `runs`. The set's `runs` names the
/// chosen ones.
pub fn learn(runs: &[Run], percent: f64, seed: u64) -> RangeSet {
    let mut set = RangeSet::default();
    for i in sample(runs.len(), sample_size(runs.len(), percent), seed) {
        set.merge(&runs[i].set);
    }
    set
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, well mixed, and fixed here so
/// that a seed keeps choosing the same runs whatever crates are upgraded.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (rejection sampling, no modulo bias).
    fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let v = self.next();
            if v < zone {
                return v % bound;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_seeded_sized_and_distinct() {
        let a = sample(100, 30, 7);
        assert_eq!(a, sample(100, 30, 7));
        assert_ne!(a, sample(100, 30, 8));
        assert_eq!(a.len(), 30);
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a[29] < 100);
        assert_eq!(sample(5, 5, 1), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn sizes_round_up_and_stay_in_bounds() {
        assert_eq!(sample_size(10, 5.0), 1);
        assert_eq!(sample_size(10, 50.0), 5);
        assert_eq!(sample_size(3, 50.0), 2);
        assert_eq!(sample_size(10, 100.0), 10);
        assert_eq!(sample_size(0, 50.0), 0);
    }

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of the reference implementation for seed 0.
        let mut r = SplitMix64(0);
        assert_eq!(r.next(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next(), 0x6e78_9e6a_a1b9_65f4);
    }
}
