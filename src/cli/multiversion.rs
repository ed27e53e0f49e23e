//! `weft multiversion`: one meta program from a C tree and N diffs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use std::io::{self, Write};

use crate::cli::report::{Format, Report, print};
use weft_meta::{MetaProgram, Options};
use weft_weave::output::{self, Selection};

/// The manifest written beside the meta program's files.
const MANIFEST: &str = "weft-meta.json";

/// Combine N patches of a C tree into one meta program, where the
/// environment picks the revision that runs.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  weft multiversion --output meta gzip-1.12 fix1.diff fix2.diff fix3.diff
  cd meta && ./configure && make && WEFT_REV=2 make check

Revision n is the tree with the n-th diff applied (0 is the tree itself).
In the meta program, WEFT_REV=n runs revision n; without it, __SWITCH<k>=n
runs revision n at site k alone (MSV's form; every __SWITCH of a run must
name the same revision). Each change is switched at the finest level that
stays legal C: whole statements of one block, or else whole functions
(renamed copies and a dispatcher); the summary says where and why it fell
back. The output is the tree copied, with the changed .c files rewritten and
weft-meta.json listing revisions and sites. Exit status: 0 written, 1 a diff
does not apply or a change cannot be placed, 2 usage error.")]
pub struct Args {
    /// The original C tree (a directory).
    tree: PathBuf,
    /// The diffs (`diff -u` or `git diff` output), one per revision.
    #[arg(required = true, value_name = "PATCH")]
    patches: Vec<PathBuf>,
    /// Where to write the meta program (a new or empty directory, or one
    /// weft wrote before).
    #[arg(long, short, value_name = "DIR")]
    output: PathBuf,
    /// The `-p` level of the diffs (found per diff when not given).
    #[arg(long, value_name = "N")]
    strip: Option<usize>,
    /// Print the sites as JSON instead of a summary.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    if !args.tree.is_dir() {
        eprintln!(
            "error: {}: not a directory (give the tree the diffs apply to)",
            args.tree.display()
        );
        return Ok(2);
    }
    let mut protected = args.patches.clone();
    protected.push(args.tree.clone());
    if let Err(e) = output::check_claim(&args.output, &protected, "output") {
        eprintln!("error: {e:#}");
        return Ok(2);
    }
    let program = match weft_meta::build(&args.tree, &args.patches, &Options { strip: args.strip }) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(1);
        }
    };
    write(&args.tree, &program, &args.output)?;
    let written = Written {
        program: &program,
        out: &args.output,
    };
    print(&written, Format::from_json_flag(args.json))?;
    Ok(0)
}

/// Copies the tree into `out` with the changed files replaced, then adds
/// the manifest.
fn write(tree: &Path, program: &MetaProgram, out: &Path) -> anyhow::Result<()> {
    let entries = output::scan(&[tree.to_path_buf()], &Selection::new(&[], &[])?)?;
    let top = entries.first().map(|e| e.dest.clone()).unwrap_or_default();
    let entries: Vec<output::Entry> = entries
        .into_iter()
        .filter_map(|mut e| {
            e.dest = e.dest.strip_prefix(&top).ok()?.to_path_buf();
            (!e.dest.as_os_str().is_empty()).then_some(e)
        })
        .collect();
    let texts: HashMap<PathBuf, String> = program
        .files
        .iter()
        .map(|(rel, text)| (tree.join(rel), text.clone()))
        .collect();
    output::write_tree(&entries, &texts, out)?;
    let manifest = serde_json::to_string_pretty(program)? + "\n";
    std::fs::write(out.join(MANIFEST), manifest).with_context(|| format!("cannot write {MANIFEST}"))
}

/// A meta program and the directory it was written to.
struct Written<'a> {
    program: &'a MetaProgram,
    out: &'a Path,
}

impl Report for Written<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write_summary(self.program, self.out, out)
    }

    fn json(&self) -> anyhow::Result<serde_json::Value> {
        Ok(serde_json::to_value(self.program)?)
    }
}

fn write_summary(program: &MetaProgram, dir: &Path, out: &mut dyn Write) -> io::Result<()> {
    let n = program.revisions.len();
    let files = program.files.len();
    writeln!(
        out,
        "meta program of {n} revision{} in {}: {} site{} in {files} file{}",
        plural(n),
        dir.display(),
        program.sites.len(),
        plural(program.sites.len()),
        plural(files)
    )?;
    for s in &program.sites {
        let branches: Vec<String> = s
            .branches
            .iter()
            .map(|b| b.iter().map(usize::to_string).collect::<Vec<_>>().join("="))
            .collect();
        writeln!(
            out,
            "  site {}  {}:{}-{}  {} in {}  revisions {}",
            s.id,
            s.file.display(),
            s.first_line,
            s.last_line.max(s.first_line),
            s.level,
            s.functions.join(", "),
            branches.join(" ")
        )?;
        if let Some(why) = &s.fallback {
            writeln!(out, "      function level because {why}")?;
        }
    }
    writeln!(
        out,
        "run revision k with WEFT_REV=k (0 is the original); see {}",
        dir.join(MANIFEST).display()
    )?;
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
