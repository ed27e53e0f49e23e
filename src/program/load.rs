//! Building a [`Program`] from files on disk with the macro-aware front end.

use std::path::Path;

use anyhow::Context;

use super::Program;
use crate::c::{FrontEnd, MacroTable};
use crate::output::{Entry, EntryKind};

impl Program {
    /// Loads the files of `entries` selected for weaving, parsed with macros
    /// learned from every .c and .h file of `entries` (and from `macro_file`, whose
    /// definitions win). A file that is not UTF-8 cannot be parsed: it is
    /// reported on stderr and left out (so it is copied unchanged).
    pub fn load(entries: &[Entry], macro_file: Option<&Path>) -> anyhow::Result<Program> {
        let mut sources = Vec::new();
        for entry in entries {
            let EntryKind::File { weave } = entry.kind else {
                continue;
            };
            let path = &entry.source;
            let is_c = matches!(path.extension().and_then(|e| e.to_str()), Some("c" | "h"));
            if !weave && !is_c {
                continue;
            }
            let bytes = std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
            match String::from_utf8(bytes) {
                Ok(text) => sources.push((path, weave, text)),
                Err(_) => eprintln!(
                    "warning: `{}` is not UTF-8; copied without weaving",
                    path.display()
                ),
            }
        }
        let mut macros = MacroTable::learn(sources.iter().map(|(p, _, t)| (p.as_path(), t.as_str())));
        if let Some(file) = macro_file {
            macros.add_macro_file(file)?;
        }
        let woven = sources
            .into_iter()
            .filter(|(_, weave, _)| *weave)
            .map(|(path, _, text)| (path.clone(), text));
        Ok(Program::new(FrontEnd::new(macros), woven))
    }
}
