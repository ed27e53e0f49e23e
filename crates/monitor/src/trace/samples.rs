//! Streaming the samples of a `.trace` file (format v2, see
//! `runtime/weft_trace_cold.h`): one sample at a time from any reader, so
//! that reading a file takes memory for one sample, whatever its length.

use std::io::{self, Read};

use weft_invariants::Value;

use super::spec::{Layout, PointDecl, VarDecl, VarKind};
use crate::record::RecordError;

/// The tag of the record that says the file reached its size cap.
const CAPPED: u32 = 0xFFFF_FFFF;

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

/// The samples of one trace file, read in order from `R` positioned at the
/// first sample. A zero tag ends a chunk (the rest of it was never
/// written); a sample cut by the end of the file is an error, after which
/// the iteration ends.
pub struct SampleReader<R> {
    reader: R,
    points: Vec<PointDecl>,
    /// Offset in the file of the next byte `reader` gives.
    at: usize,
    /// Offset of the first sample, where chunks start.
    start: usize,
    chunk: usize,
    /// The file's length when it was opened: a file that a running
    /// program still writes is read up to there.
    len: usize,
    capped: bool,
    done: bool,
    payload: Vec<u8>,
}

impl<R: Read> SampleReader<R> {
    /// A reader of the samples of a file of `len` bytes whose first sample
    /// (the start of its first chunk) is at `start`, where `reader` is.
    pub fn new(reader: R, points: Vec<PointDecl>, start: usize, chunk: usize, len: usize) -> Self {
        SampleReader {
            reader,
            points,
            at: start,
            start,
            chunk,
            len,
            capped: false,
            done: start >= len,
            payload: Vec::new(),
        }
    }

    /// Whether the runtime stopped writing at its size cap
    /// (`WEFT_TRACE_MAX_MB`); known once the iteration has ended.
    pub fn capped(&self) -> bool {
        self.capped
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], RecordError> {
        let mut buf = [0; N];
        self.reader.read_exact(&mut buf).map_err(|e| self.io_error(e))?;
        self.at += N;
        Ok(buf)
    }

    fn io_error(&self, e: io::Error) -> RecordError {
        RecordError::at(self.at, format!("cannot read: {e}"))
    }

    /// Skips the unwritten rest of the current chunk.
    fn next_chunk(&mut self) -> Result<(), RecordError> {
        let next = self.start + ((self.at - 4 - self.start) / self.chunk + 1) * self.chunk;
        let skip = next.min(self.len) - self.at;
        let skipped = io::copy(&mut (&mut self.reader).take(skip as u64), &mut io::sink())
            .map_err(|e| self.io_error(e))?;
        self.at += skipped as usize;
        Ok(())
    }

    /// The next sample; `None` at the end of the samples.
    fn read_sample(&mut self) -> Result<Option<Sample>, RecordError> {
        loop {
            if self.at + 4 > self.len {
                return Ok(None);
            }
            let at = self.at;
            let tag = u32::from_le_bytes(self.bytes()?);
            match tag {
                CAPPED => {
                    self.capped = true;
                    return Ok(None);
                }
                0 => self.next_chunk()?,
                _ => return self.sample_at(at, tag as usize - 1).map(Some),
            }
        }
    }

    /// The sample whose tag, at `at`, names `point`.
    fn sample_at(&mut self, at: usize, point: usize) -> Result<Sample, RecordError> {
        if point >= self.points.len() {
            return Err(RecordError::at(
                at,
                format!("sample of point {point}, not declared"),
            ));
        }
        if at + 16 > self.len {
            return Err(RecordError::at(at, "truncated inside a sample"));
        }
        let words = u32::from_le_bytes(self.bytes()?) as usize;
        let nonce = u64::from_le_bytes(self.bytes()?);
        let size = 8 * words;
        if self.at + size > self.len {
            return Err(RecordError::at(at, "truncated inside a sample"));
        }
        self.payload.resize(size, 0);
        self.reader
            .read_exact(&mut self.payload)
            .map_err(|e| self.io_error(e))?;
        self.at += size;
        let values = payload_values(&self.payload, &self.points[point].vars)
            .map_err(|why| RecordError::at(at, format!("sample of point {point}: {why}")))?;
        Ok(Sample { point, nonce, values })
    }
}

impl<R: Read> Iterator for SampleReader<R> {
    type Item = Result<Sample, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.read_sample().transpose();
        self.done = !matches!(next, Some(Ok(_)));
        next
    }
}

/// The values of one sample's payload, read by the point's declarations;
/// the reason when it does not match them.
fn payload_values(data: &[u8], vars: &[VarDecl]) -> Result<Vec<Value>, String> {
    let words = data.len() / 8;
    let word = |i: usize| -> Result<u64, String> {
        data.get(8 * i..8 * i + 8)
            .map(|w| u64::from_ne_bytes(w.try_into().expect("8 bytes")))
            .ok_or_else(|| format!("{words} payload words do not hold its {} variables", vars.len()))
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
                    let (value, used) = sequence_value(var, &data[8 * (next + 1)..], len)?;
                    next += used;
                    value
                }
            },
        };
        next += match var.layout {
            Layout::Through => 2,
            _ => 1,
        };
        values.push(value);
    }
    if next != words {
        return Err(format!("{words} payload words, its variables take {next}"));
    }
    Ok(values)
}

/// A string of `len` bytes or an array of `len` elements at the start of
/// `rest`, and the payload words it takes.
fn sequence_value(var: &VarDecl, rest: &[u8], len: u64) -> Result<(Value, usize), String> {
    let too_long = || format!("`{}` is longer than its sample", var.name);
    let len = usize::try_from(len)
        .ok()
        .filter(|&l| l <= rest.len())
        .ok_or_else(too_long)?;
    let words = if var.layout == Layout::Str {
        len.div_ceil(8)
    } else {
        len
    };
    if 8 * words > rest.len() {
        return Err(too_long());
    }
    let value = if var.layout == Layout::Str {
        Value::Str(String::from_utf8_lossy(&rest[..len]).into_owned())
    } else {
        sequence(var.kind, &rest[..8 * len])
    };
    Ok((value, words))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::spec::PointKind;

    const CHUNK: usize = 4096;

    fn point() -> Vec<PointDecl> {
        vec![PointDecl {
            function: "f".into(),
            kind: PointKind::Enter,
            line: 1,
            vars: vec![VarDecl {
                name: "x".into(),
                kind: VarKind::I64,
                layout: Layout::Plain,
            }],
        }]
    }

    /// Sample `i` of point 0 with `x = i`: tag, payload words, nonce, x.
    fn sample_bytes(i: u64) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend(1u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend((i + 1).to_le_bytes());
        b.extend(i.to_ne_bytes());
        b
    }

    /// A reader of `count` samples made on demand, counting the bytes it
    /// gave.
    struct Generated {
        count: u64,
        next: u64,
        pending: Vec<u8>,
        given: usize,
    }

    impl Read for Generated {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pending.is_empty() && self.next < self.count {
                self.pending = sample_bytes(self.next);
                self.next += 1;
            }
            let n = buf.len().min(self.pending.len());
            buf[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            self.given += n;
            Ok(n)
        }
    }

    #[test]
    fn samples_are_read_one_at_a_time() {
        let count = 1_000_000;
        let len = 24 * count as usize;
        let mut reader = SampleReader::new(
            Generated {
                count,
                next: 0,
                pending: Vec::new(),
                given: 0,
            },
            point(),
            0,
            len,
            len,
        );
        let first = reader.next().unwrap().unwrap();
        assert_eq!((first.nonce, first.values.clone()), (1, vec![Value::Int(0)]));
        assert_eq!(reader.reader.given, 24, "only the first sample was read");
        let rest: Vec<Sample> = reader.by_ref().map(Result::unwrap).collect();
        assert_eq!(rest.len(), count as usize - 1);
        assert_eq!(rest.last().unwrap().values, vec![Value::Int(count as i64 - 1)]);
        assert!(!reader.capped());
    }

    #[test]
    fn a_zero_tag_skips_to_the_next_chunk_and_the_cap_ends_the_samples() {
        let mut data = sample_bytes(0);
        data.resize(CHUNK, 0);
        data.extend(sample_bytes(1));
        data.extend(CAPPED.to_le_bytes());
        data.extend(sample_bytes(2));
        let mut reader = SampleReader::new(&data[..], point(), 0, CHUNK, data.len());
        let values: Vec<Vec<Value>> = reader.by_ref().map(|s| s.unwrap().values).collect();
        assert_eq!(values, vec![vec![Value::Int(0)], vec![Value::Int(1)]]);
        assert!(reader.capped());
    }

    #[test]
    fn a_cut_sample_is_an_error_at_its_tag_and_ends_the_iteration() {
        let mut data = sample_bytes(0);
        data.extend(&sample_bytes(1)[..20]);
        let mut reader = SampleReader::new(&data[..], point(), 0, CHUNK, data.len());
        assert!(reader.next().unwrap().is_ok());
        let e = reader.next().unwrap().unwrap_err();
        assert_eq!((e.offset, e.reason.as_str()), (24, "truncated inside a sample"));
        assert!(reader.next().is_none());
    }
}
