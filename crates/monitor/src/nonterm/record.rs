//! Reading the `.nonterm` report files the runtime writes (format v2, see
//! `runtime/weft_nonterm_cold.h`): the common header, the unit's loop
//! declarations, then one line per report.

use std::path::{Path, PathBuf};

use super::Nonterm;
use super::spec::{LoopDecl, Policy};
use crate::monitor::Monitor;
use crate::record::{Format, HEADER_SIZE, Header, ReadError, RecordError};
use crate::value::VarKind;

/// The non-termination monitor's report files.
pub const FORMAT: Format = Format {
    magic: b"WEFTNTM\0",
    version: 2,
    extension: "nonterm",
    what: "non-termination report",
};

/// Why a loop was reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Its exact state repeated: the loop never ends.
    Exact,
    /// It cycled for long enough, but its state is not exact.
    Suspected,
    /// Its sufficient recurrence condition held at its head: the loop
    /// never ends.
    Recurrence,
}

impl Verdict {
    /// The word in report lines.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Exact => "exact",
            Verdict::Suspected => "suspected",
            Verdict::Recurrence => "src",
        }
    }
}

/// One report: a detected revisit, or a recurrence condition that held.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Index of the loop in the file's declarations.
    pub site: usize,
    pub verdict: Verdict,
    /// The condition evaluation at which it was detected.
    pub iteration: u64,
    /// The cycle's length, in iterations (0 for [`Verdict::Recurrence`]).
    pub period: u64,
    pub policy: Policy,
    /// The state's values (the witness), as stored.
    pub values: Vec<u64>,
}

/// One report file, read whole.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFile {
    pub header: Header,
    pub unit: String,
    pub loops: Vec<LoopDecl>,
    pub reports: Vec<Report>,
}

impl ReportFile {
    /// The witness of `report` as `name = value` pairs, each value shown by
    /// its kind (signed, unsigned, floating, or an address).
    pub fn witness(&self, report: &Report) -> Vec<(String, String)> {
        let vars = self.loops.get(report.site).map_or(&[][..], |l| &l.vars[..]);
        vars.iter()
            .zip(&report.values)
            .map(|((name, kind), &bits)| (name.clone(), show(*kind, bits)))
            .collect()
    }
}

fn show(kind: VarKind, bits: u64) -> String {
    match kind {
        VarKind::I64 => (bits as i64).to_string(),
        VarKind::U64 => bits.to_string(),
        VarKind::F64 => f64::from_bits(bits).to_string(),
        VarKind::Pointer if bits == 0 => "null".to_string(),
        VarKind::Pointer => format!("{bits:#x}"),
    }
}

/// Reads the report file at `path` ([`Monitor::read_file`]); errors name
/// the file and the offset.
pub fn read_reports(path: &Path) -> Result<ReportFile, ReadError> {
    Nonterm::read_file(path)
}

/// The report files `inputs` name (directories searched for `*.nonterm`,
/// see [`Monitor::read`]), read; errors name the file.
pub fn read_all(inputs: &[PathBuf]) -> Result<Vec<ReportFile>, ReadError> {
    Ok(Nonterm::read(inputs)?.into_iter().map(|(_, file)| file).collect())
}

/// Parses a report file's bytes.
pub fn parse(data: &[u8]) -> Result<ReportFile, RecordError> {
    let header = FORMAT.header(data)?;
    let decls_end = HEADER_SIZE + header.layout[0] as usize;
    let text = |range: std::ops::Range<usize>| {
        let bytes = data
            .get(range.clone())
            .ok_or_else(|| RecordError::at(data.len(), "truncated inside the declarations"))?;
        std::str::from_utf8(bytes).map_err(|e| RecordError::at(range.start + e.valid_up_to(), "not UTF-8"))
    };
    let (unit, loops) = declarations(text(HEADER_SIZE..decls_end)?)?;
    if loops.len() != header.layout[1] as usize {
        return Err(RecordError::at(
            24,
            "the loop count disagrees with the declarations",
        ));
    }
    let mut reports = Vec::new();
    let mut at = decls_end;
    for line in text(decls_end..data.len())?.split_inclusive('\n') {
        if !line.ends_with('\n') {
            return Err(RecordError::at(at, "truncated report line"));
        }
        reports.push(report(line.trim_end(), &loops).map_err(|what| RecordError::at(at, what))?);
        at += line.len();
    }
    Ok(ReportFile {
        header,
        unit,
        loops,
        reports,
    })
}

fn declarations(text: &str) -> Result<(String, Vec<LoopDecl>), RecordError> {
    let bad =
        |n: usize, what: &str| RecordError::at(HEADER_SIZE, format!("declarations line {}: {what}", n + 1));
    let mut lines = text.lines().enumerate();
    let unit = match lines.next() {
        Some((_, l)) if l.starts_with("unit\t") => l["unit\t".len()..].to_string(),
        _ => return Err(bad(0, "expected `unit`")),
    };
    let mut loops: Vec<LoopDecl> = Vec::new();
    for (n, line) in lines {
        match line.split('\t').collect::<Vec<_>>().as_slice() {
            ["loop", function, at, exact, _count] => loops.push(LoopDecl {
                function: function.to_string(),
                line: at.parse().map_err(|_| bad(n, "bad line number"))?,
                exact: *exact == "exact",
                vars: Vec::new(),
                src: None,
            }),
            ["var", name, kind] => {
                let kind = VarKind::parse(kind).ok_or_else(|| bad(n, "unknown value kind"))?;
                let current = loops.last_mut().ok_or_else(|| bad(n, "a var before any loop"))?;
                current.vars.push((name.to_string(), kind));
            }
            ["src", condition] => {
                let current = loops.last_mut().ok_or_else(|| bad(n, "an src before any loop"))?;
                current.src = Some(condition.to_string());
            }
            _ => return Err(bad(n, "neither a loop, a var nor an src")),
        }
    }
    Ok((unit, loops))
}

fn report(line: &str, loops: &[LoopDecl]) -> Result<Report, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let number = |i: usize| -> Result<u64, String> {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("field {} of a report is not a number", i + 1))
    };
    let site = number(0)? as usize;
    let decl = loops
        .get(site)
        .ok_or_else(|| format!("a report of loop {site}, not declared"))?;
    let values = (5..fields.len()).map(number).collect::<Result<Vec<_>, _>>()?;
    if values.len() != decl.vars.len() {
        return Err(format!(
            "{} values for {} state variables",
            values.len(),
            decl.vars.len()
        ));
    }
    Ok(Report {
        site,
        verdict: match fields.get(1) {
            Some(&"exact") => Verdict::Exact,
            Some(&"suspected") => Verdict::Suspected,
            Some(&"src") if decl.src.is_some() => Verdict::Recurrence,
            Some(&"src") => return Err(format!("an src report of loop {site}, which has no src")),
            _ => return Err("field 2 of a report is not exact, suspected or src".into()),
        },
        iteration: number(2)?,
        period: number(3)?,
        policy: fields.get(4).copied().unwrap_or("").parse()?,
        values,
    })
}
