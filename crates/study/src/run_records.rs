//! What a run's monitor left, in the compact form the study database
//! keeps ([`super::store`]).
//!
//! Range records are kept as a set, split in two blobs: the *layout* (the
//! variables' keys, the same for every run of one build, so stored once)
//! and the *values* (per key its update count, bounds and NaN flag in a few
//! bytes, the whole zstd-compressed: most of a run's variables were never
//! updated, and compressed the values take half the room). Record files carry pids and creation times, so keeping them
//! byte for byte would make every run's blob unique; the set is what the
//! range detector reads. Traces (the invariant detector's records) are
//! kept as files, packed and compressed into one blob per run, and read
//! back in memory when scored.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use weft_monitor::Monitor;
use weft_monitor::ranges::{Bounds, Key, Range, RangeSet};
use weft_monitor::trace::{TraceFile, Traces};

/// A run's range set as (layout, values) blobs.
pub fn encode_ranges(set: &RangeSet) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    let keys: Vec<&Key> = set.ranges.keys().collect();
    let layout = serde_json::to_vec(&keys)?;
    let mut values = Vec::with_capacity(set.ranges.len() * 4);
    for range in set.ranges.values() {
        put_varint(&mut values, range.count);
        let (tag, lo, hi) = match range.bounds {
            None => (0u8, 0, 0),
            Some(Bounds::I64(lo, hi)) => (1, zigzag(lo), zigzag(hi)),
            Some(Bounds::U64(lo, hi)) => (2, lo, hi),
            Some(Bounds::F64(lo, hi)) => (3, lo.to_bits(), hi.to_bits()),
        };
        values.push(tag | if range.nan { 4 } else { 0 });
        if tag != 0 {
            put_varint(&mut values, lo);
            put_varint(&mut values, hi);
        }
    }
    Ok((layout, zstd::encode_all(&values[..], TRACE_LEVEL)?))
}

/// Inverse of [`encode_ranges`]; the set names `run` as its run.
pub fn decode_ranges(layout: &[u8], values: &[u8], run: &str) -> anyhow::Result<RangeSet> {
    let keys: Vec<Key> = serde_json::from_slice(layout).context("bad range layout blob")?;
    let values = &zstd::decode_all(values).context("bad range values blob (not zstd)")?[..];
    let mut at = 0;
    let mut set = RangeSet::default();
    for key in keys {
        let count = get_varint(values, &mut at)?;
        let Some(&flags) = values.get(at) else {
            bail!("range values blob too short")
        };
        at += 1;
        let mut bound = || get_varint(values, &mut at);
        let bounds = match flags & 3 {
            0 => None,
            1 => Some(Bounds::I64(unzigzag(bound()?), unzigzag(bound()?))),
            2 => Some(Bounds::U64(bound()?, bound()?)),
            _ => Some(Bounds::F64(f64::from_bits(bound()?), f64::from_bits(bound()?))),
        };
        let nan = flags & 4 != 0;
        set.ranges.insert(key, Range { count, bounds, nan });
    }
    if at != values.len() {
        bail!("range values blob longer than its layout");
    }
    set.runs.push(run.to_string());
    Ok(set)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(data: &[u8], at: &mut usize) -> anyhow::Result<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let Some(&b) = data.get(*at) else {
            bail!("range values blob too short")
        };
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    bail!("bad number in a range values blob")
}

/// zstd's level for packed traces and range values: its default, fast to
/// write and read.
const TRACE_LEVEL: i32 = 3;

/// The trace files under `out` (in [`Monitor::files`] order) as one
/// zstd-compressed blob of (relative name, length, content without its
/// trailing zeros) triples; `None` when the run left no `out`. A trace
/// file is mostly the unused rest of its last 1 MiB chunk, and its samples
/// repeat the same few values: stored whole, a study's traces fill the
/// disk.
pub fn pack_traces(out: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    if !out.exists() {
        return Ok(None);
    }
    let mut blob = Vec::new();
    for file in Traces::files(&[out.to_path_buf()])? {
        let name = file.strip_prefix(out)?.to_string_lossy().into_owned();
        let data = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
        let stored = &data[..data.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)];
        blob.extend_from_slice(&(name.len() as u64).to_le_bytes());
        blob.extend_from_slice(name.as_bytes());
        blob.extend_from_slice(&(data.len() as u64).to_le_bytes());
        blob.extend_from_slice(&(stored.len() as u64).to_le_bytes());
        blob.extend_from_slice(stored);
    }
    Ok(Some(zstd::encode_all(&blob[..], TRACE_LEVEL)?))
}

/// The traces of a [`pack_traces`] blob, read in memory (never written
/// back as files), each with its name relative to the run's `out`.
pub fn read_traces(packed: &[u8]) -> anyhow::Result<Vec<(PathBuf, TraceFile)>> {
    if packed.is_empty() {
        return Ok(Vec::new());
    }
    let blob = zstd::decode_all(packed).context("bad packed traces (not zstd)")?;
    let mut rest = &blob[..];
    let mut traces = Vec::new();
    while !rest.is_empty() {
        let name_len = length(&mut rest)?;
        let name =
            String::from_utf8(take(&mut rest, name_len)?.to_vec()).context("bad name in packed traces")?;
        let file_len = length(&mut rest)?;
        let stored_len = length(&mut rest)?;
        if stored_len > file_len {
            bail!("bad length in packed traces");
        }
        // The zeros that end its last chunk, given back (as zeroed pages).
        let mut data = vec![0u8; file_len];
        data[..stored_len].copy_from_slice(take(&mut rest, stored_len)?);
        let trace = Traces::parse(&data).with_context(|| format!("trace {name}"))?;
        traces.push((PathBuf::from(name), trace));
    }
    Ok(traces)
}

/// The trace files a run left under `out`, read as they are (none when it
/// left no `out`), each with its name relative to `out`: what
/// [`read_traces`] gives back from their [`pack_traces`] blob.
pub fn read_trace_files(out: &Path) -> anyhow::Result<Vec<(PathBuf, TraceFile)>> {
    if !out.exists() {
        return Ok(Vec::new());
    }
    Traces::files(&[out.to_path_buf()])?
        .into_iter()
        .map(|file| {
            let data = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let name = file.strip_prefix(out)?.to_path_buf();
            let trace = Traces::parse(&data).with_context(|| format!("trace {}", name.display()))?;
            Ok((name, trace))
        })
        .collect()
}

/// The first `n` bytes of `rest`, which moves past them.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> anyhow::Result<&'a [u8]> {
    if rest.len() < n {
        bail!("truncated packed traces");
    }
    let (head, tail) = rest.split_at(n);
    *rest = tail;
    Ok(head)
}

fn length(rest: &mut &[u8]) -> anyhow::Result<usize> {
    Ok(u64::from_le_bytes(take(rest, 8)?.try_into()?) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_monitor::ranges::{Kind, ValueType};

    fn key(variable: &str, value_type: ValueType) -> Key {
        Key {
            function: "f".into(),
            variable: variable.into(),
            kind: Kind::Write,
            file: "prog.c".into(),
            value_type,
        }
    }

    #[test]
    fn a_range_set_survives_its_blobs() {
        let mut set = RangeSet::default();
        let entries = [
            (
                key("i", ValueType::I64),
                Range {
                    count: 300,
                    bounds: Some(Bounds::I64(-5, i64::MAX)),
                    nan: false,
                },
            ),
            (
                key("u", ValueType::U64),
                Range {
                    count: 1,
                    bounds: Some(Bounds::U64(0, u64::MAX)),
                    nan: false,
                },
            ),
            (
                key("d", ValueType::F64),
                Range {
                    count: 2,
                    bounds: Some(Bounds::F64(-0.0, 1.5)),
                    nan: true,
                },
            ),
            (key("never", ValueType::I64), Range::EMPTY),
        ];
        for (k, r) in entries {
            set.add(k, r);
        }
        let (layout, values) = encode_ranges(&set).unwrap();
        let back = decode_ranges(&layout, &values, "run/A/v1/t1").unwrap();
        assert_eq!(back.ranges, set.ranges);
        assert_eq!(back.runs, ["run/A/v1/t1"]);
        assert!(decode_ranges(&layout, &values[..values.len() - 1], "r").is_err());
        // Whole values, but too few or too many for the layout.
        for raw in [&[1u8, 0][..], &[0u8; 64][..]] {
            let values = zstd::encode_all(raw, TRACE_LEVEL).unwrap();
            assert!(decode_ranges(&layout, &values, "r").is_err());
        }
    }

    /// A trace file of `unit` with no point and no sample, its first
    /// chunk never written: a header, the declarations, zeros.
    fn empty_trace(unit: &str) -> Vec<u8> {
        let decls = format!("unit\t{unit}\n");
        let mut data = b"WEFTTRC\0".to_vec();
        for word in [2u32, 0x0102_0304, 64, decls.len() as u32, 0, 4096] {
            data.extend_from_slice(&word.to_le_bytes());
        }
        data.resize(64, 0);
        data.extend_from_slice(decls.as_bytes());
        data.resize(2 * 4096, 0);
        data
    }

    #[test]
    fn traces_survive_their_blob_and_other_files_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir_all(out.join("fork")).unwrap();
        std::fs::write(out.join("a.1.trace"), empty_trace("a.c")).unwrap();
        std::fs::write(out.join("fork/b.2.trace"), empty_trace("b.c")).unwrap();
        std::fs::write(out.join("notes.txt"), b"not a trace").unwrap();
        let blob = pack_traces(&out).unwrap().unwrap();
        assert!(
            blob.len() < 200,
            "the chunks' zeros are not stored: {} bytes",
            blob.len()
        );
        let traces = read_traces(&blob).unwrap();
        let names: Vec<_> = traces.iter().map(|(n, t)| (n.clone(), t.unit.clone())).collect();
        assert_eq!(
            names,
            [
                (PathBuf::from("a.1.trace"), "a.c".to_string()),
                (PathBuf::from("fork/b.2.trace"), "b.c".to_string())
            ]
        );
        assert!(traces.iter().all(|(_, t)| t.samples.is_empty() && !t.capped));
        assert!(read_traces(&blob[..blob.len() - 3]).is_err());
        assert!(read_traces(b"not zstd at all").is_err());
        assert!(read_traces(&[]).unwrap().is_empty());
        assert_eq!(pack_traces(&dir.path().join("missing")).unwrap(), None);

        // A damaged trace is an error naming it, not a run without samples.
        std::fs::write(out.join("a.1.trace"), b"WEFTTRC\0 cut short").unwrap();
        let err = read_traces(&pack_traces(&out).unwrap().unwrap()).unwrap_err();
        assert!(format!("{err:#}").contains("a.1.trace"), "{err:#}");
    }
}
