//! How much of a C tree the front end understands: the findings behind
//! `weft parse-health` (printing lives in the CLI).

use super::lexer::{TokenKind, tokenize};
use super::{ParsedFile, Problem};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;

/// A region not understood.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Region {
    pub line: usize,
    pub reason: String,
    pub culprit: Option<String>,
}

/// Findings for one file.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileHealth {
    pub path: PathBuf,
    /// Function definitions: tree-sitter's, plus bodies the token stream
    /// shows but no function_definition node covers (lost to an error).
    pub functions: usize,
    /// Function definitions that are fully understood.
    pub functions_ok: usize,
    pub regions: Vec<Region>,
}

/// An identifier behind failures, with one example (a macro-file candidate).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Culprit {
    pub name: String,
    pub count: usize,
    /// `file:line: text` of the first occurrence.
    pub sample: String,
}

/// Findings for a whole tree.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Health {
    pub files: usize,
    pub functions: usize,
    pub functions_ok: usize,
    /// Number of regions not understood over all files.
    pub regions: usize,
    /// Distinct macro names learned.
    pub macros: usize,
    pub per_file: Vec<FileHealth>,
    /// Most frequent culprits first.
    pub culprits: Vec<Culprit>,
}

impl FileHealth {
    /// Examines one file read in several passes ([`FrontEnd::parse_passes`]:
    /// the first reading, then the alternatives). A function that only an
    /// alternative pass sees (in a branch the first reading did not keep)
    /// counts once, understood when some pass understood it; the regions
    /// are the first reading's and those of the alternatives inside the
    /// branches it did not keep: what no pass could read.
    ///
    /// [`FrontEnd::parse_passes`]: crate::FrontEnd::parse_passes
    pub fn of_passes(passes: &[ParsedFile]) -> FileHealth {
        let Some((first, alternatives)) = passes.split_first() else {
            return FileHealth {
                path: PathBuf::new(),
                functions: 0,
                functions_ok: 0,
                regions: Vec::new(),
            };
        };
        let mut health = FileHealth::of(first);
        let unread_only =
            |r: &Range<usize>| first.unread.iter().any(|u| u.start <= r.start && r.end <= u.end);
        // Each function an alternative sees, by where it starts, and
        // whether some pass understood it.
        let mut seen: BTreeMap<usize, bool> = BTreeMap::new();
        for pass in alternatives {
            // A definition whose header is in such a branch and whose body
            // goes on after the group is still one only alternatives see.
            for (range, ok) in definitions(pass) {
                if unread_only(&(range.start..range.start)) {
                    *seen.entry(range.start).or_default() |= ok;
                }
            }
            // Passes from different depths may meet the same region.
            for region in pass
                .problems
                .iter()
                .chain(&pass.skipped)
                .filter(|p| unread_only(&p.range))
            {
                let region = Region::of(region);
                if !health.regions.contains(&region) {
                    health.regions.push(region);
                }
            }
        }
        health.functions += seen.len();
        health.functions_ok += seen.values().filter(|&&ok| ok).count();
        health
    }

    /// Examines one parsed file.
    pub fn of(file: &ParsedFile) -> FileHealth {
        let mut functions = 0;
        let mut functions_ok = 0;
        let mut bodies = HashSet::new();
        for tree in file.trees() {
            let mut cursor = tree.walk();
            let mut stack = vec![tree.root_node()];
            while let Some(node) = stack.pop() {
                if node.kind() == "function_definition" {
                    functions += 1;
                    functions_ok += usize::from(file.is_understood(node));
                    if let Some(body) = node.child_by_field_name("body") {
                        bodies.insert(body.start_byte());
                    }
                }
                stack.extend(node.children(&mut cursor));
            }
        }
        functions += lost_bodies(&file.view, &bodies);
        let regions = file
            .problems
            .iter()
            .chain(&file.skipped)
            .map(Region::of)
            .collect();
        FileHealth {
            path: file.path.clone(),
            functions,
            functions_ok,
            regions,
        }
    }
}

impl Region {
    fn of(p: &Problem) -> Region {
        Region {
            line: p.line,
            reason: p.reason.clone(),
            culprit: p.culprit.clone(),
        }
    }
}

/// The function definitions of `file`: original range, and whether it is
/// understood.
fn definitions(file: &ParsedFile) -> Vec<(Range<usize>, bool)> {
    let mut out = Vec::new();
    for tree in file.trees() {
        let mut cursor = tree.walk();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if node.kind() == "function_definition" {
                let r = node.byte_range();
                out.push((
                    file.map.approximate(r.start)..file.map.approximate(r.end),
                    file.is_understood(node),
                ));
                continue;
            }
            stack.extend(node.children(&mut cursor));
        }
    }
    out
}

/// Counts file-scope `) {` openings (function bodies by their shape) that
/// no function_definition starts at, so an error cannot hide a function
/// from the count.
fn lost_bodies(view: &str, bodies: &HashSet<usize>) -> usize {
    let tokens = tokenize(view);
    let mut depth = 0u32;
    let mut prefix_has_assign = false;
    let mut prev: Option<&str> = None;
    let mut lost = 0;
    for t in &tokens {
        if t.kind == TokenKind::Directive {
            continue;
        }
        let text = t.text(view);
        match text {
            "{" => {
                if depth == 0 && prev == Some(")") && !prefix_has_assign && !bodies.contains(&t.range().start)
                {
                    lost += 1;
                }
                depth += 1;
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    prefix_has_assign = false;
                }
            }
            ";" if depth == 0 => prefix_has_assign = false,
            "=" if depth == 0 => prefix_has_assign = true,
            _ => {}
        }
        prev = Some(text);
    }
    lost
}

impl Health {
    /// Sums file findings; `sources` gives each file's text for samples.
    pub fn new(files: Vec<(FileHealth, &ParsedFile)>, macros: usize) -> Health {
        let mut culprits: BTreeMap<String, Culprit> = BTreeMap::new();
        for (fh, pf) in &files {
            for r in &fh.regions {
                let Some(name) = &r.culprit else { continue };
                let entry = culprits.entry(name.clone()).or_insert_with(|| Culprit {
                    name: name.clone(),
                    count: 0,
                    sample: format!(
                        "{}:{}: {}",
                        fh.path.display(),
                        r.line,
                        pf.text.lines().nth(r.line.saturating_sub(1)).unwrap_or("").trim()
                    ),
                });
                entry.count += 1;
            }
        }
        let mut culprits: Vec<Culprit> = culprits.into_values().collect();
        culprits.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
        let per_file: Vec<FileHealth> = files.into_iter().map(|(fh, _)| fh).collect();
        Health {
            files: per_file.len(),
            functions: per_file.iter().map(|f| f.functions).sum(),
            functions_ok: per_file.iter().map(|f| f.functions_ok).sum(),
            regions: per_file.iter().map(|f| f.regions.len()).sum(),
            macros,
            per_file,
            culprits,
        }
    }
}
