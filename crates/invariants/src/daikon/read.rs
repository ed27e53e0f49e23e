//! Reading `.decls` and `.dtrace` files, one record at a time: memory
//! holds the declarations, never the samples.

use std::collections::HashMap;
use std::io::BufRead;

use thiserror::Error;

use super::orig::Invocations;
use super::unescape_name;
use crate::engine::{Engine, PointId};
use crate::model::{PointDecl, Rep, Value};

/// A malformed trace, located by file and 1-based line.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The text does not follow the format.
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: usize,
        message: String,
    },
    /// The stream could not be read.
    #[error("{file}: {source}")]
    Io { file: String, source: std::io::Error },
}

/// One record of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// A program point's declaration (only the variables the engine
    /// models; see [`DtraceReader`]).
    Decl(PointDecl),
    /// A sample: the point, its invocation nonce, and a value per declared
    /// variable of the `Decl`.
    Sample {
        ppt: String,
        nonce: Option<u64>,
        values: Vec<Value>,
    },
}

/// How each variable of a declared point reaches the sample.
#[derive(Clone, Debug)]
enum Slot {
    /// Read from the record: the variable's representation.
    Read(Rep),
    /// Read from the record and dropped (a representation the engine does
    /// not model, such as arrays of strings).
    Skip,
    /// Left out of records: a `constant` declared with the variable.
    Constant(Value),
}

#[derive(Clone, Debug)]
struct Declared {
    decl: PointDecl,
    /// Every declared variable in record order: its name and slot.
    slots: std::rc::Rc<[(String, Slot)]>,
}

/// A streaming reader of `.dtrace` (and `.decls`) text.
pub struct DtraceReader<R: BufRead> {
    input: R,
    file: String,
    line: usize,
    declared: HashMap<String, Declared>,
    buf: String,
    /// A value line, kept while its modified bit is read into `buf`.
    value: String,
}

impl<R: BufRead> DtraceReader<R> {
    /// A reader of `input`; `file` names it in errors.
    pub fn new(input: R, file: impl Into<String>) -> DtraceReader<R> {
        DtraceReader {
            input,
            file: file.into(),
            line: 0,
            declared: HashMap::new(),
            buf: String::new(),
            value: String::new(),
        }
    }

    /// A reader of `input` that knows the declarations read so far, e.g. a
    /// `.dtrace` read after its separate `.decls`.
    pub fn then<S: BufRead>(self, input: S, file: impl Into<String>) -> DtraceReader<S> {
        DtraceReader {
            input,
            file: file.into(),
            line: 0,
            declared: self.declared,
            buf: String::new(),
            value: String::new(),
        }
    }

    /// The declaration of a point read so far.
    pub fn decl(&self, ppt: &str) -> Option<&PointDecl> {
        self.declared.get(ppt).map(|d| &d.decl)
    }

    /// An error at the line just read.
    fn error<T>(&self, message: impl Into<String>) -> Result<T, ReadError> {
        self.error_at(self.line, message)
    }

    fn error_at<T>(&self, line: usize, message: impl Into<String>) -> Result<T, ReadError> {
        Err(ReadError::Syntax {
            file: self.file.clone(),
            line,
            message: message.into(),
        })
    }

    /// Reads the next line into the reused buffer, without its end; `false`
    /// at the end of the input. Samples are parsed from this buffer in
    /// place: a line read costs no allocation.
    fn fill(&mut self) -> Result<bool, ReadError> {
        self.buf.clear();
        let read = self.input.read_line(&mut self.buf);
        let n = read.map_err(|source| ReadError::Io {
            file: self.file.clone(),
            source,
        })?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        let end = self.buf.trim_end_matches(['\n', '\r']).len();
        self.buf.truncate(end);
        Ok(true)
    }

    /// The next line without its end, `None` at the end of the input.
    fn next_line(&mut self) -> Result<Option<String>, ReadError> {
        Ok(self.fill()?.then(|| self.buf.clone()))
    }

    /// Reads a line that must be there into the buffer; `what` (built only
    /// on error) says what was expected.
    fn expect(&mut self, what: impl FnOnce() -> String) -> Result<(), ReadError> {
        if self.fill()? {
            Ok(())
        } else {
            self.error(format!("the file ends where {} was expected", what()))
        }
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> Result<Option<Record>, ReadError> {
        loop {
            if !self.fill()? {
                return Ok(None);
            }
            let trimmed = self.buf.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
                continue;
            }
            let (key, rest) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
            match key {
                "decl-version" if rest.trim() != "2.0" => {
                    return self.error(format!("declaration version {rest} (only 2.0 is read)"));
                }
                "decl-version" | "var-comparability" | "input-language" => continue,
                "ppt" => {
                    let name = unescape_name(rest.trim());
                    return self.read_decl(name).map(|d| Some(Record::Decl(d)));
                }
                _ => {
                    let ppt = self.buf.clone();
                    return self.read_sample(ppt).map(Some);
                }
            }
        }
    }
}

impl<R: BufRead> Iterator for DtraceReader<R> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// Declares every point of `reader` in `engine` and adds every sample,
/// exits with `orig(x)` from the entry of the same invocation
/// ([`Invocations`], which may carry over from an earlier file); returns
/// the number of samples. Engine errors are located at the record's last
/// line.
pub fn feed<R: BufRead>(
    engine: &mut Engine,
    reader: &mut DtraceReader<R>,
    invocations: &mut Invocations,
) -> Result<u64, ReadError> {
    let mut ids: HashMap<String, PointId> = HashMap::new();
    let mut samples = 0;
    while let Some(record) = reader.next_record()? {
        match record {
            Record::Decl(decl) => {
                ids.insert(decl.name.clone(), engine.declare(invocations.declare(decl)));
            }
            Record::Sample {
                ppt,
                nonce,
                mut values,
            } => {
                invocations.sample(&ppt, nonce, &mut values);
                let id = ids[&ppt];
                engine
                    .add_sample(id, &values)
                    .or_else(|e| reader.error(e.to_string()))?;
                samples += 1;
            }
        }
    }
    Ok(samples)
}

mod decl;
mod sample;
