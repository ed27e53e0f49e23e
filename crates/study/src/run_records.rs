//! What a run's monitor left, in the compact form the study database
//! keeps ([`super::store`]).
//!
//! Range records are kept as a set, split in two blobs: the *layout* (the
//! variables' keys, the same for every run of one build, so stored once)
//! and the *values* (per key its update count, bounds and NaN flag in a few
//! bytes). Record files carry pids and creation times, so keeping them
//! byte for byte would make every run's blob unique; the set is what the
//! range detector reads. Traces (the invariant detector's records) are
//! kept as files, packed into one blob per run and unpacked when scored.

use std::path::Path;

use anyhow::{Context, bail};
use weft_monitor::ranges::{Bounds, Key, Range, RangeSet};

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
    Ok((layout, values))
}

/// Inverse of [`encode_ranges`]; the set names `run` as its run.
pub fn decode_ranges(layout: &[u8], values: &[u8], run: &str) -> anyhow::Result<RangeSet> {
    let keys: Vec<Key> = serde_json::from_slice(layout).context("bad range layout blob")?;
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

/// Every file under `dir` (recursively, in name order) as one blob of
/// (relative name, length, content without its trailing zeros) triples;
/// `None` when `dir` does not exist. A trace file is mostly the unused
/// rest of its last 1 MiB chunk: stored whole, a study's traces fill the
/// disk.
pub fn pack_files(dir: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    if !dir.exists() {
        return Ok(None);
    }
    let mut blob = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.path().strip_prefix(dir)?.to_string_lossy().into_owned();
        let data =
            std::fs::read(entry.path()).with_context(|| format!("cannot read {}", entry.path().display()))?;
        let stored = &data[..data.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)];
        blob.extend_from_slice(&(name.len() as u64).to_le_bytes());
        blob.extend_from_slice(name.as_bytes());
        blob.extend_from_slice(&(data.len() as u64).to_le_bytes());
        blob.extend_from_slice(&(stored.len() as u64).to_le_bytes());
        blob.extend_from_slice(stored);
    }
    Ok(Some(blob))
}

/// Writes `data` to a new file at `path`, then extends it with zeros to
/// `len` bytes as a hole: the traces of a study's runs, unpacked together
/// with their unused chunk ends written out, would not fit on disk.
fn write_sparse(path: &Path, data: &[u8], len: usize) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::File::create(path)?;
    file.write_all(data)?;
    file.set_len(len as u64)
}

/// Writes the files of a [`pack_files`] blob under `into`.
pub fn unpack_files(blob: &[u8], into: &Path) -> anyhow::Result<()> {
    let mut rest = blob;
    std::fs::create_dir_all(into).with_context(|| format!("cannot create {}", into.display()))?;
    while !rest.is_empty() {
        let name_len = length(&mut rest)?;
        let name =
            String::from_utf8(take(&mut rest, name_len)?.to_vec()).context("bad name in a records blob")?;
        let file_len = length(&mut rest)?;
        let stored_len = length(&mut rest)?;
        if stored_len > file_len {
            bail!("bad length in a records blob");
        }
        let path = into.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        write_sparse(&path, take(&mut rest, stored_len)?, file_len)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The first `n` bytes of `rest`, which moves past them.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> anyhow::Result<&'a [u8]> {
    if rest.len() < n {
        bail!("truncated records blob");
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
    }

    #[test]
    fn files_survive_their_blob() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/x.trace"), b"\x00\x01 data").unwrap();
        std::fs::write(dir.path().join("top"), b"").unwrap();
        // A trace's unused chunk end: trailing zeros, unpacked as a hole.
        let mut tail = b"\x07 used".to_vec();
        tail.resize(1 << 20, 0);
        std::fs::write(dir.path().join("chunk.trace"), &tail).unwrap();
        let blob = pack_files(dir.path()).unwrap().unwrap();
        assert!(
            blob.len() < 200,
            "the chunk's zeros are not stored: {} bytes",
            blob.len()
        );
        let into = dir.path().join("copy");
        unpack_files(&blob, &into).unwrap();
        assert_eq!(std::fs::read(into.join("a/b/x.trace")).unwrap(), b"\x00\x01 data");
        assert_eq!(std::fs::read(into.join("top")).unwrap(), b"");
        assert_eq!(std::fs::read(into.join("chunk.trace")).unwrap(), tail);
        assert!(unpack_files(&blob[..blob.len() - 3], &dir.path().join("bad")).is_err());
        assert_eq!(pack_files(&dir.path().join("missing")).unwrap(), None);
    }
}
