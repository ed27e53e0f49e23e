//! Reading the binary record files the C runtime writes (format v1, see
//! docs/runtime.md): a 64-byte header, one 32-byte slot per entry, then five
//! NUL-terminated strings per entry naming it.

use super::key::{Key, Kind, ValueType};
use super::range::{Bounds, Range};
use crate::record::{Bytes, Format, HEADER_SIZE, RecordError};

/// The range monitor's record files.
pub const FORMAT: Format = Format {
    magic: b"WEFTRNG\0",
    version: 1,
    extension: "ranges",
    what: "range record",
};
/// The first eight bytes of every record file.
pub const MAGIC: &[u8; 8] = FORMAT.magic;
/// The file-name extension of record files.
pub const EXTENSION: &str = FORMAT.extension;

const ENTRY_SIZE: usize = 32;
/// Slot flag bits, as in runtime/weft_ranges_hot.h.
const FLAG_NUMBER: u8 = 1;
const FLAG_NAN: u8 = 2;

/// One record file: the ranges one translation unit saw in one process.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub pid: i64,
    pub ppid: i64,
    /// Creation time, seconds since the Unix epoch.
    pub time: i64,
    /// Every entry of the unit's table, in table order, reached or not.
    pub entries: Vec<(Key, Range)>,
}

/// Parses a record file's bytes. The error says what is wrong, without the
/// file name (the caller adds it).
pub fn parse(data: &[u8]) -> Result<Record, String> {
    parse_record(data).map_err(|e| e.to_string())
}

pub(crate) fn parse_record(data: &[u8]) -> Result<Record, RecordError> {
    let header = FORMAT.header(data)?;
    let [entry_size, count, names_size] = header.layout.map(|w| w as usize);
    if entry_size != ENTRY_SIZE {
        return Err(RecordError::at(
            20,
            format!("entry size {entry_size}, expected {ENTRY_SIZE}"),
        ));
    }
    let b = Bytes(data);
    let names_at = HEADER_SIZE + count * ENTRY_SIZE;
    let expected = names_at + names_size;
    if data.len() != expected {
        return Err(RecordError::at(
            data.len().min(expected),
            format!(
                "{} bytes, expected {expected} for {count} entries (truncated or corrupt)",
                data.len()
            ),
        ));
    }
    let mut names = data[names_at..]
        .split(|&c| c == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned());
    let mut entries = Vec::with_capacity(count);
    for i in 0..count {
        let mut next = || {
            names
                .next()
                .ok_or_else(|| RecordError::at(names_at, format!("entry {i}: names section too short")))
        };
        let (kind, file, function, variable, ty) = (next()?, next()?, next()?, next()?, next()?);
        let bad_name = |e: String| RecordError::at(names_at, format!("entry {i}: {e}"));
        let kind: Kind = kind.parse().map_err(bad_name)?;
        let value_type: ValueType = ty.parse().map_err(bad_name)?;
        let at = HEADER_SIZE + i * ENTRY_SIZE;
        let range = slot(&b, at, value_type)?;
        let key = Key {
            function,
            variable,
            kind,
            file,
            value_type,
        };
        entries.push((key, range));
    }
    // The names end with a NUL, so splitting leaves exactly one empty tail.
    if names.next().as_deref() != Some("") || names.next().is_some() {
        return Err(RecordError::at(names_at, "names section has extra strings"));
    }
    Ok(Record {
        pid: header.pid,
        ppid: header.ppid,
        time: header.time,
        entries,
    })
}

fn slot(b: &Bytes, at: usize, value_type: ValueType) -> Result<Range, RecordError> {
    let count = b.u64(at)?;
    let (lo, hi) = (b.array::<8>(at + 8)?, b.array::<8>(at + 16)?);
    let flags = b.array::<1>(at + 24)?[0];
    let bounds = (flags & FLAG_NUMBER != 0).then(|| {
        match value_type {
            ValueType::I64 => Bounds::I64(i64::from_le_bytes(lo), i64::from_le_bytes(hi)),
            ValueType::U64 => Bounds::U64(u64::from_le_bytes(lo), u64::from_le_bytes(hi)),
            ValueType::F64 => Bounds::F64(f64::from_le_bytes(lo), f64::from_le_bytes(hi)),
        }
        .ordered()
    });
    if let Some(Bounds::F64(lo, hi)) = bounds
        && (lo.is_nan() || hi.is_nan())
    {
        return Err(RecordError::at(at, "NaN stored as a bound"));
    }
    Ok(Range {
        count,
        bounds,
        nan: flags & FLAG_NAN != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record as the runtime lays it out, for one i64 entry.
    pub(crate) fn sample() -> Vec<u8> {
        let names = b"write\0a.c\0f\0x\0i64\0";
        let mut d = Vec::new();
        d.extend_from_slice(MAGIC);
        for v in [1u32, 0x0102_0304, 64, 32, 1, names.len() as u32] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        for v in [42i64, 1, 1_700_000_000, 0] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        d.extend_from_slice(&3u64.to_le_bytes());
        d.extend_from_slice(&(-5i64).to_le_bytes());
        d.extend_from_slice(&7i64.to_le_bytes());
        d.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
        d.extend_from_slice(names);
        d
    }

    #[test]
    fn reads_a_record() {
        let r = parse(&sample()).unwrap();
        assert_eq!(r.pid, 42);
        assert_eq!(r.entries.len(), 1);
        let (key, range) = &r.entries[0];
        assert_eq!((key.kind, key.variable.as_str()), (Kind::Write, "x"));
        assert_eq!(range.bounds, Some(Bounds::I64(-5, 7)));
        assert_eq!(range.count, 3);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let d = sample();
        for len in 0..d.len() {
            assert!(parse(&d[..len]).is_err(), "accepted a {len}-byte prefix");
        }
    }

    #[test]
    fn bad_header_fields_are_named() {
        let mut d = sample();
        d[0] = b'X';
        assert!(parse(&d).unwrap_err().contains("magic"));
        let mut d = sample();
        d[8] = 2;
        assert!(parse(&d).unwrap_err().contains("version 2"));
        let mut d = sample();
        let n = d.len();
        d[n - 3] = b'9';
        assert!(parse(&d).unwrap_err().contains("value type"));
    }
}
