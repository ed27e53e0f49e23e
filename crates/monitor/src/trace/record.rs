//! Reading the `.trace` files the trace runtime writes (format v2, see
//! `runtime/weft_trace_cold.h`): the common header, the unit's
//! declarations, then samples in chunks.

use std::path::Path;

use weft_invariants::Value;

use super::spec::{Layout, PointDecl, PointKind, VarDecl, VarKind};
use crate::record::{Bytes, Format, HEADER_SIZE, Header, RecordError};

/// The trace monitor's record files.
pub const FORMAT: Format = Format {
    magic: b"WEFTTRC\0",
    version: 2,
    extension: "trace",
    what: "trace",
};

/// The tag of the record that says the file reached its size cap.
const CAPPED: u32 = 0xFFFF_FFFF;
const PAGE: usize = 4096;

/// A payload length that means "missing" (a null or unreadable string or
/// array).
const MISSING: u64 = u64::MAX;

/// One sample: the values of a point's variables, in declaration order.
/// Unsigned values above 2^63 − 1 read as negative numbers: the engine's
/// integers are 64-bit signed.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub point: usize,
    /// The invocation: an exit's nonce equals its entry's.
    pub nonce: u64,
    pub values: Vec<Value>,
}

/// One trace file, read whole.
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

/// Reads the trace file at `path`; errors name the file and the offset.
pub fn read_trace(path: &Path) -> Result<TraceFile, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&data).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a trace file's bytes.
pub fn parse(data: &[u8]) -> Result<TraceFile, RecordError> {
    let header = FORMAT.header(data)?;
    let [decls_len, point_count, chunk] = header.layout.map(|w| w as usize);
    let decls_end = HEADER_SIZE + decls_len;
    let decls = data
        .get(HEADER_SIZE..decls_end)
        .ok_or_else(|| RecordError::at(data.len(), "truncated inside the declarations"))?;
    let decls = std::str::from_utf8(decls)
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
    let start = decls_end.div_ceil(PAGE) * PAGE;
    let (samples, capped) = samples(data, start.min(data.len()), chunk, &points)?;
    Ok(TraceFile {
        header,
        unit,
        points,
        samples,
        capped,
    })
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

/// The samples from `start` on. A zero tag ends a chunk (the rest of it was
/// never written); a sample cut by the end of the file is an error.
fn samples(
    data: &[u8],
    start: usize,
    chunk: usize,
    points: &[PointDecl],
) -> Result<(Vec<Sample>, bool), RecordError> {
    let b = Bytes(data);
    let mut out = Vec::new();
    let mut at = start;
    while at + 4 <= data.len() {
        let tag = b.u32(at)?;
        if tag == CAPPED {
            return Ok((out, true));
        }
        if tag == 0 {
            at = start + ((at - start) / chunk + 1) * chunk;
            continue;
        }
        let point = tag as usize - 1;
        let decl = points
            .get(point)
            .ok_or_else(|| RecordError::at(at, format!("sample of point {point}, not declared")))?;
        let words = b.u32(at + 4)? as usize;
        let payload = at + 16;
        let end = payload + 8 * words;
        if end > data.len() {
            return Err(RecordError::at(at, "truncated inside a sample"));
        }
        let nonce = b.u64(at + 8)?;
        let values = payload_values(data, payload, end, &decl.vars)
            .map_err(|why| RecordError::at(at, format!("sample of point {point}: {why}")))?;
        out.push(Sample { point, nonce, values });
        at = end;
    }
    Ok((out, false))
}

/// The values of one sample's payload, `data[start..end]`, read by the
/// point's declarations; the reason when it does not match them.
fn payload_values(data: &[u8], start: usize, end: usize, vars: &[VarDecl]) -> Result<Vec<Value>, String> {
    let word = |i: usize| -> Result<u64, String> {
        let at = start + 8 * i;
        data.get(at..at + 8)
            .filter(|_| at + 8 <= end)
            .map(|w| u64::from_ne_bytes(w.try_into().expect("8 bytes")))
            .ok_or_else(|| {
                format!(
                    "{} payload words do not hold its {} variables",
                    (end - start) / 8,
                    vars.len()
                )
            })
    };
    let mut next = 0;
    let mut values = Vec::with_capacity(vars.len());
    for var in vars {
        let value = match var.layout {
            Layout::Plain => scalar(var.kind, word(next)?),
            Layout::Through => match word(next)? {
                0 => Value::Missing,
                _ => scalar(var.kind, word(next + 1)?),
            },
            Layout::Str | Layout::Seq => match word(next)? {
                MISSING => Value::Missing,
                len => {
                    let at = start + 8 * (next + 1);
                    let len = usize::try_from(len).ok().filter(|&l| l <= end - start);
                    let len = len.ok_or_else(|| format!("`{}` is longer than its sample", var.name))?;
                    let words = if var.layout == Layout::Str {
                        len.div_ceil(8)
                    } else {
                        len
                    };
                    if at + 8 * words > end {
                        return Err(format!("`{}` is longer than its sample", var.name));
                    }
                    next += words;
                    if var.layout == Layout::Str {
                        Value::Str(String::from_utf8_lossy(&data[at..at + len]).into_owned())
                    } else {
                        sequence(var.kind, &data[at..at + 8 * len])
                    }
                }
            },
        };
        next += match var.layout {
            Layout::Through => 2,
            _ => 1,
        };
        values.push(value);
    }
    if start + 8 * next != end {
        return Err(format!(
            "{} payload words, its variables take {next}",
            (end - start) / 8
        ));
    }
    Ok(values)
}

/// A stored scalar as the engine's value.
fn scalar(kind: VarKind, bits: u64) -> Value {
    match kind {
        VarKind::I64 | VarKind::U64 => Value::Int(bits as i64),
        VarKind::F64 => Value::Float(f64::from_bits(bits)),
        VarKind::Pointer => Value::Pointer(bits),
    }
}

/// Stored array elements as the engine's sequence: floats, or integers
/// (addresses too, by their bits).
fn sequence(kind: VarKind, bytes: &[u8]) -> Value {
    let words = bytes
        .chunks_exact(8)
        .map(|w| u64::from_ne_bytes(w.try_into().expect("8 bytes")));
    match kind {
        VarKind::F64 => Value::FloatSeq(words.map(f64::from_bits).collect()),
        _ => Value::IntSeq(words.map(|w| w as i64).collect()),
    }
}
