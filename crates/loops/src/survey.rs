//! Every loop of a program analysed (`weft nonterm analyse`'s finding):
//! per loop, whether it is in the integer fragment and, under each
//! semantics asked for, its SRC or why there is none; loops are analysed
//! in parallel, each within its own solver budget. [`Survey::write_checked`]
//! writes the files with the `if (SRC)` checks woven in.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use weft_c::ParsedFile;
use weft_smt::Solver;
use weft_weave::output::{Entry, EntryKind};
use weft_weave::program::Program;

use crate::{Loop, Semantics, Verdict, find, loops_in, weave_checks};

/// One loop's findings.
pub struct Found {
    /// The file the loop is in, as it was given.
    pub file: String,
    /// The line of the loop's keyword (1-based).
    pub line: usize,
    /// `while`, `for` or `do`.
    pub kind: &'static str,
    /// Why the loop is outside the integer fragment, if it is.
    pub outside: Option<String>,
    /// Per semantics: the SRC text and how it was found, or the reason.
    pub results: Vec<(Semantics, Verdict)>,
    /// Wall-clock milliseconds the loop's analysis took, every semantics together.
    pub millis: f64,
}

/// One analysed file: its original text and its loops, in the order of
/// [`Survey::found`], with byte ranges in that text (none where the front
/// end's view differs from it).
struct Surveyed {
    path: PathBuf,
    text: std::sync::Arc<str>,
    loops: Vec<Option<Loop>>,
}

/// Every loop of a program with its findings.
pub struct Survey {
    /// Loops in file order, then source order.
    pub found: Vec<Found>,
    /// The semantics each loop was analysed under, in the order of
    /// [`Found::results`].
    pub semantics: Vec<Semantics>,
    files: Vec<Surveyed>,
}

/// The C files as `weft weave` loads them: each parsed by a front end that
/// knows the macros of the headers beside it.
pub fn load(paths: &[PathBuf]) -> anyhow::Result<Program> {
    let mut entries = Vec::new();
    for path in paths {
        anyhow::ensure!(path.is_file(), "{}: no such file", path.display());
        entries.push(Entry {
            source: path.clone(),
            dest: path.clone(),
            kind: EntryKind::File { weave: true },
        });
    }
    Program::load(&entries, None)
}

/// Analyses every loop of `program` under each of `semantics`, each loop
/// within `budget` of `solver`'s time. Solver errors are errors.
pub fn survey(
    program: &mut Program,
    semantics: &[Semantics],
    solver: &Solver,
    budget: Duration,
) -> Result<Survey, weft_smt::Error> {
    let (files, sema) = program.with_semantics();
    let per_file: Vec<Vec<Loop>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| loops_in(f, sema, i))
        .collect();
    let jobs: Vec<(usize, &Loop)> = per_file
        .iter()
        .enumerate()
        .flat_map(|(i, ls)| ls.iter().map(move |l| (i, l)))
        .collect();
    let found = jobs
        .par_iter()
        .map(|(i, l)| analyse_loop(&files[*i].path, l, semantics, solver, budget))
        .collect::<Result<Vec<_>, _>>()?;
    let files = files
        .iter()
        .zip(per_file)
        .map(|(file, loops)| Surveyed {
            path: file.path.clone(),
            text: file.text.clone(),
            loops: loops.iter().map(|l| in_original(file, l)).collect(),
        })
        .collect();
    Ok(Survey {
        found,
        semantics: semantics.to_vec(),
        files,
    })
}

impl Survey {
    /// How many loops have an SRC under `semantics`.
    pub fn with_src(&self, semantics: Semantics) -> usize {
        self.found
            .iter()
            .filter(|f| f.results.iter().any(|(s, r)| *s == semantics && r.is_ok()))
            .count()
    }

    /// Writes each file into `dir` (created if missing) under its own
    /// name, with an `if (SRC)` check at the top of every loop that has an
    /// SRC: under bit-vectors (what the machine runs) unless the survey
    /// was made under ideal integers alone.
    pub fn write_checked(&self, dir: &Path) -> anyhow::Result<()> {
        let semantics = match self.semantics[..] {
            [one] => one,
            _ => Semantics::BitVector,
        };
        std::fs::create_dir_all(dir)?;
        for (name, woven) in self.checked(semantics)? {
            std::fs::write(dir.join(name), woven)?;
        }
        Ok(())
    }

    /// Each file's name and its text with an `if (SRC)` check at the top
    /// of every loop that has an SRC under `semantics`.
    fn checked(&self, semantics: Semantics) -> anyhow::Result<Vec<(OsString, String)>> {
        let mut found = self.found.iter();
        let mut out = Vec::new();
        for file in &self.files {
            let mut checks = Vec::new();
            for (l, f) in file.loops.iter().zip(found.by_ref()) {
                let src = f.results.iter().find_map(|(s, r)| match r {
                    Ok((text, _)) if *s == semantics => Some(text),
                    _ => None,
                });
                let woven = l
                    .as_ref()
                    .is_some_and(|l| l.fragment.as_ref().is_ok_and(|f| f.unwoven().is_none()));
                if let (Some(src), Some(l), true) = (src, l, woven) {
                    checks.push((l, src.clone()));
                }
            }
            let name = file
                .path
                .file_name()
                .ok_or_else(|| anyhow::anyhow!("{}: not a file", file.path.display()))?;
            let woven = weave_checks(&file.text, &file.path.display().to_string(), &checks);
            out.push((name.to_os_string(), woven));
        }
        Ok(out)
    }
}

/// Loop `l` of `file` with its byte ranges in the original text (the front
/// end's view may differ where it repaired a macro); none when a range is
/// not the original's.
fn in_original(file: &ParsedFile, l: &Loop) -> Option<Loop> {
    Some(Loop {
        range: file.original_range(l.range.clone())?,
        body: file.original_range(l.body.clone())?,
        ..l.clone()
    })
}

fn analyse_loop(
    file: &Path,
    l: &Loop,
    semantics: &[Semantics],
    solver: &Solver,
    budget: Duration,
) -> Result<Found, weft_smt::Error> {
    let start = Instant::now();
    let mut found = Found {
        file: file.display().to_string(),
        line: l.line,
        kind: l.kind,
        outside: None,
        results: Vec::new(),
        millis: 0.0,
    };
    match &l.fragment {
        Err(why) => found.outside = Some(why.clone()),
        Ok(fragment) => {
            for &s in semantics {
                found
                    .results
                    .push((s, find(fragment, s, &solver.with_budget(budget))?));
            }
        }
    }
    found.millis = start.elapsed().as_secs_f64() * 1000.0;
    Ok(found)
}
