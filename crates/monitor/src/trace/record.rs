//! Reading the `.trace` files the trace runtime writes (format v2, see
//! `runtime/weft_trace_cold.h`): the common header, the unit's
//! declarations, then samples in chunks, which [`super::samples`] streams.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

pub use super::samples::Sample;
use super::samples::SampleReader;
use super::spec::{Layout, PointDecl, PointKind, VarDecl};
use crate::record::{Format, HEADER_SIZE, Header, RecordError};

/// The trace monitor's record files.
pub const FORMAT: Format = Format {
    magic: b"WEFTTRC\0",
    version: 2,
    extension: "trace",
    what: "trace",
};

const PAGE: usize = 4096;

/// What a trace file's samples are samples of: its header and its unit's
/// declarations.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceHead {
    pub header: Header,
    /// The unit's path as the weaver named it.
    pub unit: String,
    pub points: Vec<PointDecl>,
}

/// One trace file, read whole (its samples in memory: for a run's files
/// that are read more than once; [`open_trace`] streams them).
#[derive(Debug, Clone, PartialEq)]
pub struct TraceFile {
    pub header: Header,
    /// The unit's path as the weaver named it.
    pub unit: String,
    pub points: Vec<PointDecl>,
    pub samples: Vec<Sample>,
    /// The runtime stopped writing at its size cap (`WEFT_TRACE_MAX_MB`).
    pub capped: bool,
}

/// Opens the trace file at `path`: its declarations, and a reader of its
/// samples that holds one sample at a time. Errors name the file and the
/// offset; those found while streaming name the offset, and the caller
/// adds the file.
pub fn open_trace(path: &Path) -> Result<(TraceHead, SampleReader<BufReader<File>>), String> {
    let fail = |e: String| format!("{}: {e}", path.display());
    let file = File::open(path).map_err(|e| fail(e.to_string()))?;
    let len = file.metadata().map_err(|e| fail(e.to_string()))?.len() as usize;
    open(BufReader::new(file), len).map_err(|e| fail(e.to_string()))
}

/// Reads the trace file at `path` whole; errors name the file and the
/// offset.
pub fn read_trace(path: &Path) -> Result<TraceFile, String> {
    let (head, samples) = open_trace(path)?;
    collect(head, samples).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a trace file's bytes.
pub fn parse(data: &[u8]) -> Result<TraceFile, RecordError> {
    let (head, samples) = open(data, data.len())?;
    collect(head, samples)
}

fn collect<R: Read>(head: TraceHead, mut reader: SampleReader<R>) -> Result<TraceFile, RecordError> {
    let samples = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    Ok(TraceFile {
        header: head.header,
        unit: head.unit,
        points: head.points,
        samples,
        capped: reader.capped(),
    })
}

/// Reads the header and the declarations of a file of `len` bytes from
/// `reader`, and leaves it at the first sample.
fn open<R: Read>(mut reader: R, len: usize) -> Result<(TraceHead, SampleReader<R>), RecordError> {
    let mut bytes = Vec::new();
    let read_error = |at: usize, e: std::io::Error| RecordError::at(at, format!("cannot read: {e}"));
    (&mut reader)
        .take(HEADER_SIZE as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(0, e))?;
    let header = FORMAT.header(&bytes)?;
    let [decls_len, point_count, chunk] = header.layout.map(|w| w as usize);
    bytes.clear();
    (&mut reader)
        .take(decls_len as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(HEADER_SIZE, e))?;
    if bytes.len() < decls_len {
        return Err(RecordError::at(len, "truncated inside the declarations"));
    }
    let decls = std::str::from_utf8(&bytes)
        .map_err(|e| RecordError::at(HEADER_SIZE + e.valid_up_to(), "declarations are not UTF-8"))?;
    let (unit, points) = declarations(decls)?;
    if points.len() != point_count {
        return Err(RecordError::at(
            24,
            format!("{point_count} points in the header, {} declared", points.len()),
        ));
    }
    if chunk < PAGE || !chunk.is_multiple_of(PAGE) {
        return Err(RecordError::at(28, format!("bad chunk size {chunk}")));
    }
    let decls_end = HEADER_SIZE + decls_len;
    let start = decls_end.div_ceil(PAGE) * PAGE;
    let padding = start.min(len) - decls_end;
    std::io::copy(&mut (&mut reader).take(padding as u64), &mut std::io::sink())
        .map_err(|e| read_error(decls_end, e))?;
    let samples = SampleReader::new(reader, points.clone(), start, chunk, len);
    Ok((TraceHead { header, unit, points }, samples))
}

/// The unit name and the points of a declarations text.
fn declarations(text: &str) -> Result<(String, Vec<PointDecl>), RecordError> {
    let bad = |line: usize, what: &str| {
        RecordError::at(HEADER_SIZE, format!("declarations line {}: {what}", line + 1))
    };
    let mut lines = text.lines().enumerate();
    let unit = match lines.next() {
        Some((_, l)) if l.starts_with("unit\t") => l["unit\t".len()..].to_string(),
        _ => return Err(bad(0, "expected `unit`")),
    };
    let mut points: Vec<PointDecl> = Vec::new();
    for (n, line) in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["point", function, kind, at, _count] => points.push(PointDecl {
                function: function.to_string(),
                kind: match *kind {
                    "enter" => PointKind::Enter,
                    "exit" => PointKind::Exit,
                    "point" => PointKind::Inner,
                    _ => return Err(bad(n, "point kind is not enter, exit or point")),
                },
                line: at.parse().map_err(|_| bad(n, "bad line number"))?,
                vars: Vec::new(),
            }),
            ["var", name, kind] => {
                let (layout, kind) = Layout::parse(kind).ok_or_else(|| bad(n, "unknown value kind"))?;
                let point = points
                    .last_mut()
                    .ok_or_else(|| bad(n, "a var before any point"))?;
                point.vars.push(VarDecl {
                    name: name.to_string(),
                    kind,
                    layout,
                });
            }
            _ => return Err(bad(n, "neither a point nor a var")),
        }
    }
    Ok((unit, points))
}
