//! Sample records and their value lines.

use std::io::BufRead;

use super::{DtraceReader, ReadError, Record, Slot};
use crate::model::{Rep, Value};

impl<R: BufRead> DtraceReader<R> {
    /// Reads the record whose first line names the point `ppt`: an
    /// optional nonce, then name, value and modified bit per variable, up
    /// to a blank line or the end of the file.
    pub(super) fn read_sample(&mut self, ppt: String) -> Result<Record, ReadError> {
        let Some(declared) = self.declared.get(&ppt) else {
            return self.error(format!("a sample of {ppt}, which is not declared"));
        };
        // Shared, not copied: a sample must not clone its point's names.
        let slots = std::rc::Rc::clone(&declared.slots);
        let mut more = self.record_line()?;
        let mut nonce = None;
        if more && self.buf == "this_invocation_nonce" {
            self.expect(|| "the nonce".to_string())?;
            let text = &self.buf;
            nonce = Some(
                text.trim()
                    .parse()
                    .or_else(|_| self.error(format!("nonce {text:?} is not a number")))?,
            );
            more = self.record_line()?;
        }
        let mut values = Vec::with_capacity(slots.len());
        for (name, slot) in slots.iter() {
            if let Slot::Constant(value) = slot {
                values.push(value.clone());
                continue;
            }
            if !more {
                return self.error(format!("the record of {ppt} ends before variable {name}"));
            }
            if self.buf != *name {
                let found = &self.buf;
                return self.error(format!("expected variable {name} of {ppt}, found {found:?}"));
            }
            if let Some(value) = self.read_value(name, slot)? {
                values.push(value);
            }
            more = self.record_line()?;
        }
        if more {
            let extra = &self.buf;
            return self.error(format!("{ppt} has no more variables, found {extra:?}"));
        }
        Ok(Record::Sample { ppt, nonce, values })
    }

    /// Reads the next line of a record into the buffer; `false` at its end
    /// (blank line or end of the file).
    fn record_line(&mut self) -> Result<bool, ReadError> {
        Ok(self.fill()? && !self.buf.trim().is_empty())
    }

    /// A variable's value and modified-bit lines; `None` for a skipped one.
    fn read_value(&mut self, name: &str, slot: &Slot) -> Result<Option<Value>, ReadError> {
        self.expect(|| format!("the value of {name}"))?;
        let value_line = self.line;
        std::mem::swap(&mut self.buf, &mut self.value);
        self.expect(|| format!("the modified bit of {name}"))?;
        let rep = match (slot, self.buf.trim()) {
            (_, "0" | "1" | "2") if matches!(slot, Slot::Skip) => return Ok(None),
            (_, "2") => return Ok(Some(Value::Missing)),
            (Slot::Read(rep), "0" | "1") => *rep,
            (_, bit) => return self.error(format!("modified bit {bit:?} of {name} (0, 1 or 2)")),
        };
        let text = &self.value;
        if text.trim() == "nonsensical" {
            return Ok(Some(Value::Missing));
        }
        match self.parse_value(text, rep) {
            Ok(value) => Ok(Some(value)),
            Err(_) => self.error_at(value_line, not_a_value(text, rep)),
        }
    }

    /// A value line of a variable of `rep`.
    pub(super) fn parse_value(&self, text: &str, rep: Rep) -> Result<Value, ReadError> {
        let text = text.trim();
        let parsed = match rep {
            Rep::Int => int(text).map(Value::Int),
            Rep::Float => float(text).map(Value::Float),
            Rep::Pointer if text == "null" => Some(Value::Pointer(0)),
            Rep::Pointer => text.parse().ok().map(Value::Pointer),
            Rep::Str if text == "null" => Some(Value::Missing),
            Rep::Str => unquote(text).map(Value::Str),
            Rep::IntSeq | Rep::FloatSeq if text == "null" => Some(Value::Missing),
            Rep::IntSeq => items(text)
                .and_then(|i| i.iter().map(|t| int(t)).collect())
                .map(Value::IntSeq),
            Rep::FloatSeq => items(text)
                .and_then(|i| i.iter().map(|t| float(t)).collect())
                .map(Value::FloatSeq),
        };
        match parsed {
            Some(value) => Ok(value),
            None => self.error(not_a_value(text, rep)),
        }
    }
}

fn not_a_value(text: &str, rep: Rep) -> String {
    format!(
        "{:?} is not a value of rep-type {}",
        text.trim(),
        crate::daikon::rep_type(rep)
    )
}

fn int(text: &str) -> Option<i64> {
    match text {
        "true" => Some(1),
        "false" => Some(0),
        _ => text.parse().ok(),
    }
}

fn float(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => text.parse().ok(),
    }
}

/// The items of `[a b c]`.
fn items(text: &str) -> Option<Vec<&str>> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    Some(inner.split_whitespace().collect())
}

/// The string in a quoted, escaped value.
fn unquote(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            other => other,
        });
    }
    Some(out)
}
