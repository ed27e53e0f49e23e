//! Declaration blocks: `ppt`, its fields, its `variable`s.

use std::io::BufRead;

use super::{Declared, DtraceReader, ReadError, Slot};
use crate::daikon::{rep_of, unescape_name};
use crate::model::{PointDecl, PointKind, VarDecl};

/// A variable being read: name, `rep-type`, `comparability`, `constant`,
/// and whether its `flags` say `synthetic`.
#[derive(Default)]
struct VarFields {
    name: String,
    rep_type: Option<String>,
    comparability: Option<u32>,
    constant: Option<String>,
    synthetic: bool,
}

impl<R: BufRead> DtraceReader<R> {
    /// Reads the fields of `ppt <name>` up to a blank line.
    pub(super) fn read_decl(&mut self, name: String) -> Result<PointDecl, ReadError> {
        let mut kind = kind_from_name(&name);
        let mut vars: Vec<VarFields> = Vec::new();
        while let Some(line) = self.next_line()? {
            let line = line.trim();
            if line.is_empty() {
                break;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let value = value.trim();
            match (key, vars.last_mut()) {
                ("ppt-type", _) => kind = self.ppt_kind(value)?,
                ("variable", _) => vars.push(VarFields {
                    name: unescape_name(value),
                    ..VarFields::default()
                }),
                ("rep-type", Some(var)) => var.rep_type = Some(value.to_string()),
                ("comparability", Some(var)) => var.comparability = self.comparability(value)?,
                ("constant", Some(var)) => var.constant = Some(value.to_string()),
                ("flags", Some(var)) => var.synthetic = value.split_whitespace().any(|f| f == "synthetic"),
                _ => {} // Fields the engine has no use for: dec-type, flags, parent...
            }
        }
        let declared = self.declared_point(name, kind, vars)?;
        let decl = declared.decl.clone();
        match self.declared.get(&decl.name) {
            Some(earlier) if earlier.decl != decl => {
                return self.error(format!("{} is declared again, differently", decl.name));
            }
            _ => self.declared.insert(decl.name.clone(), declared),
        };
        Ok(decl)
    }

    fn declared_point(
        &self,
        name: String,
        kind: PointKind,
        vars: Vec<VarFields>,
    ) -> Result<Declared, ReadError> {
        let mut decl_vars = Vec::new();
        let mut slots = Vec::new();
        for var in vars {
            let Some(rep_type) = &var.rep_type else {
                return self.error(format!("variable {} has no rep-type", var.name));
            };
            // A synthetic variable (such as the stand-in pointer weft writes
            // for an array whose address it does not trace) is read and dropped.
            let rep = rep_of(rep_type).filter(|_| !var.synthetic);
            let slot = match (rep, &var.constant) {
                (None, _) => Slot::Skip,
                (Some(rep), None) => Slot::Read(rep),
                (Some(rep), Some(text)) => Slot::Constant(self.parse_value(text, rep)?),
            };
            if let Some(rep) = rep {
                decl_vars.push(VarDecl {
                    name: engine_name(&var.name),
                    rep,
                    comparability: var.comparability,
                });
            }
            slots.push((var.name, slot));
        }
        let function = name.split(['(', ':']).next().unwrap_or(&name).to_string();
        Ok(Declared {
            decl: PointDecl {
                name,
                function,
                kind,
                vars: decl_vars,
            },
            slots: slots.into(),
        })
    }

    fn ppt_kind(&self, value: &str) -> Result<PointKind, ReadError> {
        Ok(match value {
            "enter" => PointKind::Enter,
            "exit" | "subexit" => PointKind::Exit,
            "point" | "class" | "object" => PointKind::Point,
            other => return self.error(format!("unknown ppt-type {other}")),
        })
    }

    /// `comparability N` (`N[M]` for arrays: the elements' part is
    /// ignored); negative numbers are comparable with everything.
    fn comparability(&self, value: &str) -> Result<Option<u32>, ReadError> {
        let number = value.split('[').next().unwrap_or(value);
        match number.parse::<i64>() {
            Ok(n) if n < 0 => Ok(None),
            Ok(n) => Ok(u32::try_from(n).ok()),
            Err(_) => self.error(format!("comparability {value} is not a number")),
        }
    }
}

/// The engine's name of a variable: an array's elements, `a[..]` in
/// Daikon's names, are `a[]`.
fn engine_name(name: &str) -> String {
    match name.strip_suffix("[..]") {
        Some(array) => format!("{array}[]"),
        None => name.to_string(),
    }
}

/// The kind a point's name implies, when no `ppt-type` says.
fn kind_from_name(name: &str) -> PointKind {
    match name.rsplit_once(":::") {
        Some((_, "ENTER")) => PointKind::Enter,
        Some((_, tag)) if tag.starts_with("EXIT") => PointKind::Exit,
        _ => PointKind::Point,
    }
}
