//! Sites: the changed regions of one file, merged across revisions and
//! grown until each can hold a switch on the revision, statement level
//! where that stays legal C and function level where it does not.

use std::ops::Range;

use anyhow::bail;

use super::filescope::{self, NeedsSplit};
use super::hunks::{Hunk, map_range};
use super::place::{Definition, Text};
use super::split;

/// How a site picks its revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Granularity {
    /// An `if` chain around whole statements of one block of `function`.
    Statements { function: String },
    /// Renamed copies of whole function definitions and a dispatcher each.
    Functions { names: Vec<String> },
    /// Between functions: added declarations kept for all, changed macro
    /// bodies picking the revision ([`filescope`]).
    FileScope,
}

/// The text one or more revisions have at a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The revisions (1-based) with this text, in order.
    pub revisions: Vec<usize>,
    pub text: String,
    /// At a function site, the definitions in `text` (offsets into it).
    pub definitions: Vec<Definition>,
}

/// One changed region of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Original lines (0-based, end exclusive; empty for an insertion).
    pub lines: Range<usize>,
    pub granularity: Granularity,
    /// Why the statement level could not be used, for a function site.
    pub fallback: Option<String>,
    /// The original text of `lines`.
    pub original: String,
    /// At a function site, the original definitions (offsets into
    /// `original`).
    pub definitions: Vec<Definition>,
    /// Every text other than the original, with its revisions.
    pub branches: Vec<Branch>,
    /// At a file-scope site, the texts merged.
    pub merged: Option<filescope::Merged>,
}

/// One file as the original and each revision that changes it have it.
pub struct FileVersions<'f> {
    pub path: String,
    /// Parses a piece of the file's text (with the front end).
    pub parse: &'f dyn Fn(&str) -> weft_c::ParsedFile,
    pub original: Text<'f>,
    /// Revision number (1-based), its text, and its hunks against the original.
    pub revisions: Vec<(usize, Text<'f>, Vec<Hunk>)>,
}

/// A region while sites are being grown.
#[derive(Debug, Clone)]
struct Region {
    lines: Range<usize>,
    functions: Option<String>,
    /// Between functions (see [`filescope`]).
    file_scope: bool,
}

impl FileVersions<'_> {
    /// The file's sites, in order; an error when a change cannot be placed
    /// (outside function bodies, in text the front end did not understand,
    /// or a directive that would hold for every revision).
    pub fn sites(&self) -> anyhow::Result<Vec<Site>> {
        let mut regions: Vec<Region> = self
            .revisions
            .iter()
            .flat_map(|(_, _, hunks)| hunks.iter())
            .map(|h| Region {
                lines: h.old.clone(),
                functions: None,
                file_scope: false,
            })
            .collect();
        // Statement-level regions grow (and merge) first; only when none
        // grows is a region that still cannot switch moved to function
        // level, since a neighbour's growth may have made it whole.
        loop {
            regions = merge(regions);
            let placed: Vec<Region> = regions
                .iter()
                .map(|r| self.place(r))
                .collect::<anyhow::Result<_>>()?;
            let grew = |old: &Region, new: &Region| new.lines != old.lines;
            let moved = |old: &Region, new: &Region| {
                new.functions.is_some() != old.functions.is_some() || new.file_scope != old.file_scope
            };
            if regions.iter().zip(&placed).any(|(o, n)| grew(o, n)) {
                for (old, new) in regions.iter_mut().zip(placed) {
                    if grew(old, &new) {
                        *old = new;
                    }
                }
            } else if regions.iter().zip(&placed).any(|(o, n)| moved(o, n)) {
                regions = placed;
            } else {
                break;
            }
        }
        regions.iter().map(|r| self.site(r)).collect()
    }

    /// The region a region must grow to, or its placement as it is.
    fn place(&self, region: &Region) -> anyhow::Result<Region> {
        if region.functions.is_none() {
            match self.statement_level(&region.lines) {
                Ok(lines) => {
                    return Ok(Region {
                        lines,
                        functions: None,
                        file_scope: false,
                    });
                }
                Err(why) => {
                    return Ok(Region {
                        lines: region.lines.clone(),
                        functions: Some(why),
                        file_scope: false,
                    });
                }
            }
        }
        let Some(found) = self.original.functions(&region.lines) else {
            if self.between_functions(&region.lines) {
                return Ok(Region {
                    file_scope: true,
                    ..region.clone()
                });
            }
            // Part of a declaration (a line of an array's initializer):
            // the whole declaration is the site.
            if let Some(lines) = self
                .original
                .top_level_hull(&region.lines)
                .filter(|l| *l != region.lines)
            {
                return Ok(Region {
                    lines,
                    ..region.clone()
                });
            }
            bail!(
                "{}:{}: {} changes code outside function bodies (or in a function that shares a line \
                 with other code); only changes inside functions can be switched",
                self.path,
                region.lines.start + 1,
                self.who(&region.lines)
            );
        };
        // Functions with one copy per revision are kept side by side.
        if !found.names.is_empty() && found.names.iter().all(|n| split::is_copy(n)) {
            return Ok(Region {
                lines: found.lines,
                functions: region.functions.clone(),
                file_scope: true,
            });
        }
        if found.lines == region.lines {
            let mut names = found.names.clone();
            for (_, text, hunks) in self.touching(&region.lines) {
                let mapped = map_range(hunks, region.lines.clone());
                match text.functions(&mapped) {
                    Some(f) if f.lines == mapped && f.names == found.names => {}
                    // Renamed, split or merged: every revision's functions
                    // get their own copies.
                    other => names.extend(other.map(|f| f.names).unwrap_or_default()),
                }
            }
            if names.len() > found.names.len() {
                return Err(NeedsSplit(names).into());
            }
        }
        Ok(Region {
            lines: found.lines,
            functions: region.functions.clone(),
            file_scope: false,
        })
    }

    /// Whether `lines` hold only whole top-level items in the original and
    /// in every revision that changes them.
    fn between_functions(&self, lines: &Range<usize>) -> bool {
        self.original.top_level(lines)
            && self
                .touching(lines)
                .all(|(_, text, hunks)| text.top_level(&map_range(hunks, lines.clone())))
    }

    /// The lines of whole statements of one block around `lines`, checked
    /// in every revision; `Err` says why the statement level is not legal.
    fn statement_level(&self, lines: &Range<usize>) -> Result<Range<usize>, String> {
        let original = self
            .original
            .statements(lines)
            .ok_or("the change is not inside one block of statements")?;
        if original.lines != *lines {
            return Ok(original.lines);
        }
        let mut labels = original.labels.clone();
        let mut escaping = original.escaping.clone();
        for (rev, text, hunks) in self.touching(lines) {
            let mapped = map_range(hunks, lines.clone());
            let found = text
                .statements(&mapped)
                .filter(|s| s.lines == mapped && s.function == original.function)
                .ok_or(format!(
                    "revision {rev} does not change whole statements of the same block"
                ))?;
            if let Some(label) = found.labels.iter().find(|l| labels.contains(l)) {
                return Err(format!("label `{label}` would be defined twice"));
            }
            labels.extend(found.labels);
            escaping.extend(found.escaping);
        }
        match escaping.first() {
            Some(name) => Err(format!("`{name}` is declared in the change and used after it")),
            None => Ok(lines.clone()),
        }
    }

    /// The revisions with a hunk inside `lines`.
    fn touching(&self, lines: &Range<usize>) -> impl Iterator<Item = &(usize, Text<'_>, Vec<Hunk>)> {
        self.revisions
            .iter()
            .filter(move |(_, _, hunks)| hunks.iter().any(|h| touches(&h.old, lines)))
    }

    /// "revision 2" or "revisions 2, 5", for messages.
    fn who(&self, lines: &Range<usize>) -> String {
        let revs: Vec<String> = self.touching(lines).map(|(r, _, _)| r.to_string()).collect();
        match revs.len() {
            1 => format!("revision {}", revs[0]),
            _ => format!("revisions {}", revs.join(", ")),
        }
    }

    fn site(&self, region: &Region) -> anyhow::Result<Site> {
        let lines = &region.lines;
        let original = self.original.slice(lines).to_string();
        if !region.file_scope {
            check_directives(&self.path, lines.start + 1, &original)?;
        }
        let at_functions = region.functions.is_some() && !region.file_scope;
        let definitions = if at_functions {
            self.definitions(&self.original, lines)?
        } else {
            Vec::new()
        };
        let mut branches: Vec<Branch> = Vec::new();
        for (rev, text, hunks) in self.touching(lines) {
            let mapped = map_range(hunks, lines.clone());
            let body = text.slice(&mapped).to_string();
            if !region.file_scope {
                check_directives(
                    &format!("{} (revision {rev})", self.path),
                    mapped.start + 1,
                    &body,
                )?;
            }
            if body == original {
                continue;
            }
            if let Some(b) = branches.iter_mut().find(|b| b.text == body) {
                b.revisions.push(*rev);
                continue;
            }
            let defs = if at_functions {
                self.definitions(text, &mapped)?
            } else {
                Vec::new()
            };
            if defs.len() != definitions.len() || defs.iter().zip(&definitions).any(|(d, o)| !same_call(d, o))
            {
                // No dispatcher can call every revision: one copy each,
                // and the calls switched.
                let names = self
                    .original
                    .functions(lines)
                    .map(|f| f.names)
                    .unwrap_or_default();
                return Err(NeedsSplit(names).into());
            }
            branches.push(Branch {
                revisions: vec![*rev],
                text: body,
                definitions: defs,
            });
        }
        let merged = match region.file_scope {
            true => Some(filescope::merge(
                &self.path,
                lines.start + 1,
                &original,
                &branches,
                split::is_copy,
                self.parse,
            )?),
            false => None,
        };
        let granularity = match &region.functions {
            _ if region.file_scope => Granularity::FileScope,
            None => Granularity::Statements {
                function: self
                    .original
                    .statements(lines)
                    .map(|s| s.function)
                    .unwrap_or_default(),
            },
            Some(_) => Granularity::Functions {
                names: self
                    .original
                    .functions(lines)
                    .map(|f| f.names)
                    .unwrap_or_default(),
            },
        };
        Ok(Site {
            lines: lines.clone(),
            granularity,
            fallback: region.functions.clone().filter(|_| !region.file_scope),
            original,
            definitions,
            branches,
            merged,
        })
    }

    /// The definitions at `lines` of `text`, relative to the lines' start;
    /// each must be callable through a dispatcher.
    fn definitions(&self, text: &Text, lines: &Range<usize>) -> anyhow::Result<Vec<Definition>> {
        let found = text.functions(lines).map(|f| f.definitions).unwrap_or_default();
        let origin = text.offset(lines.start);
        found
            .iter()
            .map(|d| match &d.call {
                Ok(_) => Ok(d.shifted(origin)),
                // No dispatcher can call it (old-style, `...`): a copy per
                // revision, and the calls switched.
                Err(_) => Err(NeedsSplit(vec![text.file.text[d.name_at.clone()].to_string()]).into()),
            })
            .collect()
    }
}

/// Whether a dispatcher written for `original` can call `revision`.
fn same_call(revision: &Definition, original: &Definition) -> bool {
    match (&revision.call, &original.call) {
        (Ok(r), Ok(o)) => r.params.len() == o.params.len() && r.returns_void == o.returns_void,
        _ => false,
    }
}

/// Whether two line ranges overlap or touch (an insertion at either end
/// of a range is part of it).
fn touches(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// Regions sorted and merged where they touch; a merged region is at
/// function level when any part was.
fn merge(mut regions: Vec<Region>) -> Vec<Region> {
    regions.sort_by_key(|r| (r.lines.start, r.lines.end));
    let mut out: Vec<Region> = Vec::new();
    for r in regions {
        match out.last_mut() {
            Some(last) if touches(&last.lines, &r.lines) => {
                last.lines.end = last.lines.end.max(r.lines.end);
                if last.functions.is_none() {
                    last.functions = r.functions;
                }
            }
            _ => out.push(r),
        }
    }
    out
}

/// A directive other than a conditional in a changed text would hold for
/// every revision (the preprocessor runs before any switch): refused.
fn check_directives(path: &str, first_line: usize, text: &str) -> anyhow::Result<()> {
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let word: String = rest
            .trim_start()
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        if !matches!(
            word.as_str(),
            "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif"
        ) {
            bail!(
                "{path}:{}: `#{word}` in a changed region would hold for every revision (the \
                 preprocessor runs before the revision is picked); move it out of the change",
                first_line + i
            );
        }
    }
    if weft_c::open_conditionals(text) != 0 {
        bail!("{path}:{first_line}: a changed region opens a conditional (#if) it does not close");
    }
    Ok(())
}
