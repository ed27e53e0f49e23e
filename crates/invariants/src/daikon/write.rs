//! Writing `.decls` and `.dtrace` files.

use std::io::{self, Write};

use super::{escape_name, ppt_type, rep_type};
use crate::model::{PointDecl, Rep, Value, VarDecl};

/// Writes the declarations of `points` (a `.decls` file, or the head of a
/// `.dtrace` file with inline declarations).
pub fn write_decls<W: Write>(out: &mut W, points: &[PointDecl]) -> io::Result<()> {
    writeln!(out, "decl-version 2.0")?;
    writeln!(out, "var-comparability implicit")?;
    writeln!(out)?;
    for point in points {
        write_ppt(out, point)?;
    }
    Ok(())
}

fn write_ppt<W: Write>(out: &mut W, point: &PointDecl) -> io::Result<()> {
    writeln!(out, "ppt {}", escape_name(&point.name))?;
    writeln!(
        out,
        "  ppt-type {}",
        ppt_type(point.kind, point.exit_number().is_some())
    )?;
    for var in &point.vars {
        let comparability = var.comparability.map_or(-1, i64::from);
        let Some(array) = array_name(var) else {
            writeln!(out, "  variable {}", escape_name(&var.name))?;
            match field_of(point, var) {
                Some((pointer, field)) => {
                    writeln!(out, "    var-kind field {field}")?;
                    writeln!(out, "    enclosing-var {}", escape_name(pointer))?;
                }
                None => writeln!(out, "    var-kind variable")?,
            }
            writeln!(out, "    dec-type {}", dec_type(var.rep))?;
            writeln!(out, "    rep-type {}", rep_type(var.rep))?;
            writeln!(out, "    comparability {comparability}")?;
            continue;
        };
        if stand_in_needed(point, array) {
            writeln!(out, "  variable {}", escape_name(array))?;
            writeln!(out, "    var-kind variable")?;
            writeln!(out, "    dec-type {}", dec_type(var.rep))?;
            writeln!(out, "    rep-type hashcode")?;
            writeln!(out, "    flags synthetic non_null")?;
            writeln!(out, "    comparability -1")?;
        }
        writeln!(out, "  variable {}[..]", escape_name(array))?;
        writeln!(out, "    var-kind array")?;
        writeln!(out, "    enclosing-var {}", escape_name(array))?;
        writeln!(out, "    array 1")?;
        writeln!(out, "    dec-type {}", dec_type(var.rep))?;
        writeln!(out, "    rep-type {}", rep_type(var.rep))?;
        writeln!(out, "    comparability {comparability}")?;
    }
    writeln!(out)
}

/// `(p, len)` for a member `p->len` read through a pointer `p` that the
/// point traces too: Daikon declares it as the field `len` of its
/// enclosing variable `p`, as Kvasir does. Anything else (a member of a
/// struct value, `g.len`, whose struct is no variable of the point; a
/// pointer not traced there) stays a plain variable.
fn field_of<'v>(point: &PointDecl, var: &'v VarDecl) -> Option<(&'v str, &'v str)> {
    let (pointer, field) = var.name.split_once("->")?;
    let simple = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let traced = point
        .vars
        .iter()
        .any(|v| v.rep == Rep::Pointer && v.name == pointer);
    (simple(pointer) && simple(field) && traced).then_some((pointer, field))
}

/// The array `a` of a sequence variable, named `a[]` (weft's name for an
/// array's contents) or `a`: Daikon declares it as the pointer variable
/// `a` and its elements `a[..]` (`enclosing-var a`, `array 1`).
fn array_name(var: &VarDecl) -> Option<&str> {
    var.rep
        .is_sequence()
        .then(|| var.name.strip_suffix("[]").unwrap_or(&var.name))
}

/// Whether the array `array` of `point` needs a stand-in for its pointer
/// variable: weft records an array's contents, not its address, unless a
/// pointer variable of that name is traced too. The stand-in is flagged
/// `synthetic` (and dropped when read back) and holds a fixed non-null
/// value per array, [`stand_in_address`].
fn stand_in_needed(point: &PointDecl, array: &str) -> bool {
    !point
        .vars
        .iter()
        .any(|v| v.rep == Rep::Pointer && v.name == array)
}

/// The value of an array's stand-in pointer variable: a hash of its name,
/// non-null, the same in every sample (as a global array's address is).
fn stand_in_address(array: &str) -> u64 {
    let hash = array.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    (hash & 0x7fff_ffff) | 1
}

/// A C-ish declared type for each representation.
fn dec_type(rep: Rep) -> &'static str {
    match rep {
        Rep::Int => "int",
        Rep::Float => "double",
        Rep::Pointer => "void*",
        Rep::Str => "char*",
        Rep::IntSeq => "int[]",
        Rep::FloatSeq => "double[]",
    }
}

/// Writes sample records to a `.dtrace` stream.
pub struct DtraceWriter<W: Write> {
    out: W,
}

impl<W: Write> DtraceWriter<W> {
    /// A writer of records to `out`.
    pub fn new(out: W) -> DtraceWriter<W> {
        DtraceWriter { out }
    }

    /// Writes declarations inline, before the records that use them.
    pub fn decls(&mut self, points: &[PointDecl]) -> io::Result<()> {
        write_decls(&mut self.out, points)
    }

    /// Writes one sample of `point`; `nonce` pairs an entry with its exit
    /// (`this_invocation_nonce`). `Missing` is written `nonsensical` with
    /// modified bit 2.
    pub fn sample(&mut self, point: &PointDecl, nonce: Option<u64>, values: &[Value]) -> io::Result<()> {
        writeln!(self.out, "{}", point.name)?;
        if let Some(nonce) = nonce {
            writeln!(self.out, "this_invocation_nonce\n{nonce}")?;
        }
        for (var, value) in point.vars.iter().zip(values) {
            let modified = if value.is_missing() { 2 } else { 1 };
            let Some(array) = array_name(var) else {
                writeln!(self.out, "{}\n{}\n{modified}", var.name, dtrace_value(value))?;
                continue;
            };
            if stand_in_needed(point, array) {
                writeln!(self.out, "{array}\n{}\n1", stand_in_address(array))?;
            }
            writeln!(self.out, "{array}[..]\n{}\n{modified}", dtrace_value(value))?;
        }
        writeln!(self.out)
    }

    /// The underlying stream.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// A value as a `.dtrace` value line.
pub(crate) fn dtrace_value(value: &Value) -> String {
    match value {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => float(*f),
        Value::Pointer(0) => "null".into(),
        Value::Pointer(p) => p.to_string(),
        Value::Str(s) => quote(s),
        Value::IntSeq(items) => seq(items.iter().map(|i| i.to_string())),
        Value::FloatSeq(items) => seq(items.iter().map(|f| float(*f))),
        Value::Missing => "nonsensical".into(),
    }
}

fn float(f: f64) -> String {
    match f {
        f if f.is_nan() => "NaN".into(),
        f64::INFINITY => "Infinity".into(),
        f64::NEG_INFINITY => "-Infinity".into(),
        f => format!("{f:?}"),
    }
}

fn seq(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(" "))
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
