//! The text of a changed file in the meta program: each site replaced by
//! its switch, a prototype of the revision selector at the top and the
//! selector itself (`runtime/weft_meta.h`) at the end.

use std::fmt::Write;

use super::dispatch;
use super::place::Text;
use super::site::{Granularity, Site};

/// The selector's C text.
const RUNTIME: &str = include_str!("../runtime/weft_meta.h");

/// The meta text of a file whose sites (in order) have the global ids
/// `ids`, for a program of `revisions` revisions.
pub fn file(original: &Text, sites: &[Site], ids: &[usize], revisions: usize) -> String {
    let text = &*original.file.text;
    // File-scope sites keep every revision's text and switch nothing.
    let switches = sites.iter().any(|s| s.granularity != Granularity::FileScope);
    let mut out = match switches {
        true => String::from("static int weft_meta_rev(int weft_slot); /* weft: which revision runs */\n"),
        false => String::new(),
    };
    let mut pos = 0;
    for (slot, (site, id)) in sites.iter().zip(ids).enumerate() {
        let start = original.offset(site.lines.start);
        out.push_str(&text[pos..start]);
        match site.granularity {
            Granularity::Statements { .. } => out.push_str(&chain(slot, *id, site, indent(&text[start..]))),
            Granularity::Functions { .. } => out.push_str(&dispatch::write(slot, *id, site)),
            Granularity::FileScope => match &site.merged {
                Some(merged) => out.push_str(&merged.text),
                None => out.push_str(&site.original),
            },
        }
        pos = original.offset(site.lines.end);
    }
    out.push_str(&text[pos..]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    if !switches {
        return out;
    }
    let cache = vec!["-1"; sites.len()].join(", ");
    let ids: Vec<String> = ids.iter().map(usize::to_string).collect();
    let _ = write!(
        out,
        "\n#define WEFT_META_REVISIONS {revisions}\nstatic const int weft_meta_sites[{n}] = {{ {} }};\n\
         static int weft_meta_cache[{n}] = {{ {cache} }};\n{RUNTIME}",
        ids.join(", "),
        n = sites.len(),
    );
    out
}

/// The leading blanks of the first non-blank line of `text`.
fn indent(text: &str) -> &str {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    &line[..line.len() - line.trim_start().len()]
}

/// A statement-level site: an `if` chain with a branch per distinct
/// revision text and the original last.
fn chain(slot: usize, id: usize, site: &Site, indent: &str) -> String {
    let mut out = String::new();
    if site.branches.is_empty() {
        return site.original.clone();
    }
    for (i, b) in site.branches.iter().enumerate() {
        let test: Vec<String> = b
            .revisions
            .iter()
            .map(|r| format!("weft_meta_rev({slot}) == {r}"))
            .collect();
        let keyword = if i == 0 { "if" } else { "} else if" };
        let _ = writeln!(
            out,
            "{indent}{keyword} ({}) {{ /* weft site {id} */",
            test.join(" || ")
        );
        push_lines(&mut out, &b.text);
    }
    if !site.original.is_empty() {
        let _ = writeln!(out, "{indent}}} else {{");
        push_lines(&mut out, &site.original);
    }
    let _ = writeln!(out, "{indent}}}");
    out
}

fn push_lines(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}
