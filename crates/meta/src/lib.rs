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

mod ctext;
mod dispatch;
mod emit;
mod filescope;
mod hunks;
mod patch;
mod place;
mod site;
mod split;

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
    let mut texts: split::Texts = vec![BTreeMap::new()];
    for rev in &revisions {
        for rel in rev.files.keys() {
            if !texts[0].contains_key(rel) {
                texts[0].insert(rel.clone(), read(tree, rel)?);
            }
        }
    }
    for rev in &revisions {
        let mut files = texts[0].clone();
        for (rel, text) in &rev.files {
            files.insert(rel.clone(), split::without_cosmetic_changes(&texts[0][rel], text));
        }
        texts.push(files);
    }
    if texts[1..].iter().all(|files| *files == texts[0]) {
        bail!(
            "the patches change nothing in {} (comments and spacing aside)",
            tree.display()
        );
    }
    let front = Sources::collect(&[tree.to_path_buf()], false)?.front_end(None)?;
    let all_files = c_files(tree)?;
    let mut names: Vec<String> = Vec::new();
    loop {
        let mut involved = texts.clone();
        for rel in &all_files {
            if !involved[0].contains_key(rel) {
                let text = read(tree, rel)?;
                if ctext::identifiers(&text).any(|i| names.iter().any(|n| n == i)) {
                    for files in &mut involved {
                        files.insert(rel.clone(), text.clone());
                    }
                }
            }
        }
        let parse = |rel: &Path, text: &str| front.parse(&tree.join(rel), Arc::from(text));
        let involved = split::split(involved, &names, &parse);
        match assemble(tree, patches, &front, &involved) {
            Err(e) => match e.downcast_ref::<filescope::NeedsSplit>() {
                Some(filescope::NeedsSplit(more)) if more.iter().any(|m| !names.contains(m)) => {
                    if let Some(main) = more.iter().find(|m| *m == "main") {
                        bail!(
                            "revisions define `{main}` differently (its signature); the program's entry cannot be copied per revision"
                        );
                    }
                    for m in more {
                        if !names.contains(m) {
                            names.push(m.clone());
                        }
                    }
                }
                _ => return Err(e),
            },
            done => return done,
        }
    }
}

fn read(tree: &Path, rel: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(tree.join(rel))
        .with_context(|| format!("cannot read {}", tree.join(rel).display()))
}

/// The C files (`.c`, `.h`) of `tree`, relative to it; links are not
/// followed.
fn c_files(tree: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(tree) {
        let entry = entry?;
        let is_c = entry.path().extension().is_some_and(|e| e == "c" || e == "h");
        if entry.file_type().is_file() && is_c {
            out.push(entry.path().strip_prefix(tree)?.to_path_buf());
        }
    }
    Ok(out)
}

/// The meta program of the texts of every revision (`texts[0]` the
/// original's, with split names already renamed).
fn assemble(
    tree: &Path,
    patches: &[PathBuf],
    front: &weft_c::FrontEnd,
    texts: &split::Texts,
) -> anyhow::Result<MetaProgram> {
    let mut program = MetaProgram {
        revisions: patches.to_vec(),
        files: BTreeMap::new(),
        sites: Vec::new(),
    };
    for (rel, text) in &texts[0] {
        let parse = |t: &str| front.parse(&tree.join(rel), Arc::from(t));
        let original = parse(text);
        let parsed: Vec<(usize, ParsedFile)> = texts[1..]
            .iter()
            .enumerate()
            .filter(|(_, files)| files[rel] != *text)
            .map(|(i, files)| (i + 1, parse(&files[rel])))
            .collect();
        let first_site = program.sites.len();
        if parsed.is_empty() {
            // Only renamed: the copies of split names live here.
            if read(tree, rel)? != *text {
                program.files.insert(rel.clone(), text.clone());
            }
            continue;
        }
        add_file(&mut program, tree, front, rel, &original, &parsed, patches.len())?;
        let is_c = rel.extension().is_some_and(|e| e == "c");
        if let Some(site) = program.sites[first_site..]
            .iter()
            .find(|s| !is_c && s.level != "file scope")
        {
            bail!(
                "{}:{}: a patch changes code in this header; revisions can be switched in .c files \
                 only (a header is read by several units, and a switch in it would be copied to each)",
                rel.display(),
                site.first_line
            );
        }
    }
    Ok(program)
}

/// Finds one file's sites and writes its meta text into `program`.
fn add_file(
    program: &mut MetaProgram,
    tree: &Path,
    front: &weft_c::FrontEnd,
    rel: &Path,
    original: &ParsedFile,
    parsed: &[(usize, ParsedFile)],
    revisions: usize,
) -> anyhow::Result<()> {
    let parse = |text: &str| front.parse(&tree.join(rel), Arc::from(text));
    let versions = site::FileVersions {
        path: rel.display().to_string(),
        parse: &parse,
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
