//! Meta programs: one C tree that holds N revisions of a program (each an
//! original tree plus one unified diff), where the revision that runs is
//! picked from the environment (`WEFT_REV=n`, 0 = the original).
//!
//! Each diff is applied to scratch copies ([`patch`]); its line hunks
//! against the original ([`hunks`]) are merged across revisions into sites
//! grown to whole statements of one block, or to whole functions where a
//! statement-level switch would not be legal C ([`place`], [`site`]); each
//! changed file is then written with its sites switched ([`emit`],
//! [`dispatch`]). The user's tree is only read.

mod dispatch;
mod emit;
mod filescope;
mod hunks;
mod patch;
mod place;
mod site;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::Serialize;
use weft_c::{ParsedFile, Sources};

pub use site::Granularity;

/// What `build` is told besides the tree and the diffs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The `-p` level of every diff; found per diff when `None`.
    pub strip: Option<usize>,
}

/// A meta program: the changed files' new texts and what was done.
#[derive(Debug, Clone, Serialize)]
pub struct MetaProgram {
    /// The diffs; revision n is `revisions[n - 1]`.
    pub revisions: Vec<PathBuf>,
    /// The new text of each changed file, by path relative to the tree.
    #[serde(skip)]
    pub files: BTreeMap<PathBuf, String>,
    /// Every site, in file and line order; a site's id is its index.
    pub sites: Vec<SiteSummary>,
}

/// One site, as reports show it.
#[derive(Debug, Clone, Serialize)]
pub struct SiteSummary {
    pub id: usize,
    pub file: PathBuf,
    /// Original lines, 1-based and inclusive (`first > last` for an
    /// insertion before `first`).
    pub first_line: usize,
    pub last_line: usize,
    /// `statements` or `functions`.
    pub level: &'static str,
    /// The function the statements are in, or the functions switched.
    pub functions: Vec<String>,
    /// Why the statement level could not be used.
    pub fallback: Option<String>,
    /// The revisions whose text differs here, grouped by equal text.
    pub branches: Vec<Vec<usize>>,
}

/// Builds the meta program of `tree` and `patches` (revision n is
/// `patches[n - 1]`). Nothing is written.
pub fn build(tree: &Path, patches: &[PathBuf], options: &Options) -> anyhow::Result<MetaProgram> {
    if patches.is_empty() {
        bail!("no patches: give at least one diff");
    }
    let revisions = patches
        .iter()
        .enumerate()
        .map(|(i, p)| patch::apply(p, tree, options.strip).with_context(|| format!("revision {}", i + 1)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut changed: BTreeMap<PathBuf, String> = BTreeMap::new();
    for rev in &revisions {
        for rel in rev.files.keys() {
            if !changed.contains_key(rel) {
                let text = std::fs::read_to_string(tree.join(rel))
                    .with_context(|| format!("cannot read {}", tree.join(rel).display()))?;
                changed.insert(rel.clone(), text);
            }
        }
    }
    changed.retain(|rel, text| {
        revisions
            .iter()
            .any(|r| r.files.get(rel).is_some_and(|t| t != text))
    });
    if changed.is_empty() {
        bail!("the patches change nothing in {}", tree.display());
    }
    if let Some(header) = changed
        .keys()
        .find(|rel| rel.extension().is_none_or(|e| e != "c"))
    {
        bail!(
            "{}: a patch changes this file; revisions can be switched in .c files only \
             (a header is read by several units, and a change to it holds for all of them)",
            header.display()
        );
    }
    let front = Sources::collect(&[tree.to_path_buf()], false)?.front_end(None)?;
    let mut program = MetaProgram {
        revisions: patches.to_vec(),
        files: BTreeMap::new(),
        sites: Vec::new(),
    };
    for (rel, text) in &changed {
        let parse = |t: &str| front.parse(&tree.join(rel), Arc::from(t));
        let original = parse(text);
        let parsed: Vec<(usize, ParsedFile)> = revisions
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i + 1, parse(r.files.get(rel)?))))
            .collect();
        add_file(&mut program, rel, &original, &parsed, patches.len())?;
    }
    Ok(program)
}

/// Finds one file's sites and writes its meta text into `program`.
fn add_file(
    program: &mut MetaProgram,
    rel: &Path,
    original: &ParsedFile,
    parsed: &[(usize, ParsedFile)],
    revisions: usize,
) -> anyhow::Result<()> {
    let versions = site::FileVersions {
        path: rel.display().to_string(),
        original: place::Text::new(original),
        revisions: parsed
            .iter()
            .map(|(n, p)| (*n, place::Text::new(p), hunks::hunks(&original.text, &p.text)))
            .filter(|(_, _, h)| !h.is_empty())
            .collect(),
    };
    let sites = versions.sites()?;
    let first_id = program.sites.len();
    let ids: Vec<usize> = (first_id..first_id + sites.len()).collect();
    for (site, &id) in sites.iter().zip(&ids) {
        program.sites.push(summary(id, rel, site));
    }
    program.files.insert(
        rel.to_path_buf(),
        emit::file(&versions.original, &sites, &ids, revisions),
    );
    Ok(())
}

fn summary(id: usize, rel: &Path, site: &site::Site) -> SiteSummary {
    let (level, functions) = match &site.granularity {
        Granularity::Statements { function } => ("statements", vec![function.clone()]),
        Granularity::Functions { names } => ("functions", names.clone()),
        Granularity::FileScope => ("file scope", Vec::new()),
    };
    SiteSummary {
        id,
        file: rel.to_path_buf(),
        first_line: site.lines.start + 1,
        last_line: site.lines.end,
        level,
        functions,
        fallback: site.fallback.clone(),
        branches: site.branches.iter().map(|b| b.revisions.clone()).collect(),
    }
}
