//! Reading the `.outputs` records the runtime writes (format v1, see
//! `runtime/weft_outputs_cold.h`): the common header, `unit\t<path>\n`,
//! then one `<name>\t<value>\n` line per recorded value.

use std::path::Path;

use super::Outputs;
use crate::monitor::Monitor;
use crate::record::{Format, HEADER_SIZE, ReadError, RecordError};

/// The outputs monitor's record files.
pub const FORMAT: Format = Format {
    magic: b"WEFTOUT\0",
    version: 1,
    extension: "outputs",
    what: "outputs record",
};

/// What one process recorded in one translation unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputRecord {
    /// The unit's path as the weaver named it (`src/main.c`).
    pub unit: String,
    /// The process that wrote it.
    pub pid: u32,
    /// The values in the order they were recorded: (name, value text), both
    /// as written (see docs/outputs.md for the value text).
    pub values: Vec<(String, String)>,
}

/// Every outputs record `dir` holds (recursively; one per process and
/// unit), ordered by unit, then pid, then path. A directory without records
/// gives none; a missing one is [`ReadError::Missing`], like every
/// monitor's (the runner creates `$WEFT_OUT` before the run).
pub fn read_dir(dir: &Path) -> Result<Vec<OutputRecord>, ReadError> {
    let mut records: Vec<OutputRecord> = Outputs::read(&[dir.to_path_buf()])?
        .into_iter()
        .map(|(_, record)| record)
        .collect();
    records.sort_by(|a, b| (&a.unit, a.pid).cmp(&(&b.unit, b.pid)));
    Ok(records)
}

/// Reads the record at `path`.
pub fn read_record(path: &Path) -> Result<OutputRecord, ReadError> {
    Outputs::read_file(path)
}

/// Parses a record's bytes. A line the end of the file cuts (a process
/// killed inside the `write` of a value) is an error at its offset, like
/// any other damage: never a silently shorter record.
pub fn parse(data: &[u8]) -> Result<OutputRecord, RecordError> {
    let header = FORMAT.header(data)?;
    let pid = u32::try_from(header.pid)
        .map_err(|_| RecordError::at(32, format!("process id {} out of range", header.pid)))?;
    let decls_end = HEADER_SIZE + header.layout[0] as usize;
    let decls = data
        .get(HEADER_SIZE..decls_end)
        .ok_or_else(|| RecordError::at(data.len(), "truncated inside the declarations"))?;
    let unit = std::str::from_utf8(decls)
        .ok()
        .and_then(|d| d.strip_prefix("unit\t"))
        .and_then(|d| d.strip_suffix('\n'))
        .filter(|u| !u.contains('\n'))
        .ok_or_else(|| RecordError::at(HEADER_SIZE, "the declarations are not `unit\\t<path>\\n`"))?;
    let mut values = Vec::new();
    let mut at = decls_end;
    while at < data.len() {
        let Some(len) = data[at..].iter().position(|&b| b == b'\n') else {
            return Err(RecordError::at(at, "truncated value line"));
        };
        values.push(line(&data[at..at + len]).map_err(|(offset, why)| RecordError::at(at + offset, why))?);
        at += len + 1;
    }
    Ok(OutputRecord {
        unit: unit.to_string(),
        pid,
        values,
    })
}

/// One line without its `\n`: a name, a tab, a value. Errors carry the
/// offset in the line.
fn line(bytes: &[u8]) -> Result<(String, String), (usize, &'static str)> {
    if let Some(bad) = bytes
        .iter()
        .position(|&b| !(b == b'\t' || (0x20..0x7f).contains(&b)))
    {
        return Err((bad, "a byte that is neither printable ASCII nor a tab"));
    }
    // Only printable ASCII and tabs: valid UTF-8.
    let text = std::str::from_utf8(bytes).map_err(|_| (0, "not UTF-8"))?;
    let (name, value) = text.split_once('\t').ok_or((0, "a line without a tab"))?;
    if name.is_empty() {
        return Err((0, "a value without a name"));
    }
    let value_at = name.len() + 1;
    if let Some(tab) = value.find('\t') {
        return Err((value_at + tab, "a line with more than one tab"));
    }
    if !(value == "null" || is_number(value) || is_string(value)) {
        return Err((value_at, "a value that is neither a number, a string nor null"));
    }
    Ok((name.to_string(), value.to_string()))
}

/// Decimal integers and printf's `%g` forms (`-1.5e-07`, `inf`, `-nan`).
fn is_number(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    if matches!(s, "inf" | "nan") {
        return true;
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match s.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (s, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
}

/// A quoted string with the runtime's escapes, `...` after it when cut.
fn is_string(s: &str) -> bool {
    let Some(body) = s.strip_suffix("...").unwrap_or(s).strip_prefix('"') else {
        return false;
    };
    let mut bytes = body.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'"' => return bytes.next().is_none(),
            b'\\' => match bytes.next() {
                Some(b'\\' | b'"' | b'n' | b't' | b'r') => {}
                Some(b'x') => {
                    let hex = |b: Option<u8>| b.is_some_and(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
                    if !(hex(bytes.next()) && hex(bytes.next())) {
                        return false;
                    }
                }
                _ => return false,
            },
            _ => {}
        }
    }
    false
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
