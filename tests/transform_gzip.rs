//! gzip 1.12 after all five passes over its own `.c` files must build with
//! its unchanged `./configure && make`, pass its own `make check`, and
//! draw no gcc `-Wall` warning its original files do not (compared per
//! file and function, ignoring line numbers).
//! Slow (configure, build, test suite): run with
//! `cargo test --test transform_gzip -- --ignored --nocapture`.
//! Also prints the passes' edit and skip counts and their time against
//! tree-sitter's raw parse time of the same files.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod sources_support;

use setup_support::sh;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use weft::c::{Sources, parse_view};
use weft::program::transform_text;
use weft::transform::pass_names;

fn gzip_dir() -> PathBuf {
    setup_support::gzip_dir()
}

/// gzip's own sources (not gnulib's `lib/`).
fn gzip_sources(root: &Path) -> Vec<(PathBuf, String)> {
    sources_support::c_files(root)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The `-Wall` warnings of compiling gzip's own file `stem.c` in the
/// configured tree `dir`, as `function: message [-Wflag]` (no line
/// numbers, so that edits moving code do not count), or `None` when the
/// file is not part of this build (dfltcc.c outside IBM Z).
fn warnings(dir: &Path, stem: &str) -> Option<BTreeSet<String>> {
    let (ok, log) = sh(
        dir,
        &format!("rm -f {stem}.o && LC_ALL=C make -s CFLAGS='-g -O2 -Wall' {stem}.o"),
    );
    if !ok {
        return None;
    }
    let mut function = String::from("(top level)");
    let mut found = BTreeSet::new();
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix(&format!("{stem}.c: In function '")) {
            function = rest.trim_end_matches("':").to_string();
        } else if line.ends_with(": At top level:") {
            function = String::from("(top level)");
        } else if let Some((_, message)) = line.split_once(": warning: ") {
            found.insert(format!("{stem}.c: {function}: {message}"));
        }
    }
    Some(found)
}

#[test]
#[ignore = "slow: configures, builds and tests gzip"]
fn gzip_passes_its_own_checks_after_all_five_passes() {
    let pristine = gzip_dir();
    assert!(pristine.join("gzip.c").exists(), "gzip sources missing");
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("gzip");
    let (ok, log) = sh(
        tmp.path(),
        &format!("cp -a {}/. {}", pristine.display(), copy.display()),
    );
    assert!(ok, "{log}");

    setup_support::progress("the five passes over gzip's own .c files");
    let files = gzip_sources(&copy);
    let lines: usize = files.iter().map(|(_, t)| t.lines().count()).sum();
    let started = Instant::now();
    for (_, text) in &files {
        parse_view(text);
    }
    let parse_time = started.elapsed();
    let passes: Vec<&str> = pass_names().iter().map(|(n, _)| *n).collect();
    let started = Instant::now();
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let front_end = Sources::collect(&paths, false)
        .and_then(|s| s.front_end(None))
        .unwrap();
    let (texts, report) = transform_text(&front_end, &files, &passes, std::slice::from_ref(&copy)).unwrap();
    let pass_time = started.elapsed();
    println!(
        "{} files, {lines} lines: raw parse {parse_time:?}, five passes {pass_time:?} ({:.1}x)",
        files.len(),
        pass_time.as_secs_f64() / parse_time.as_secs_f64()
    );
    for r in &report {
        let edits: usize = r.outcomes.iter().map(|o| o.edits.len()).sum();
        let skipped: usize = r.outcomes.iter().map(|o| o.skipped.len()).sum();
        println!("{:<28} {edits:>5} edits {skipped:>5} skipped", r.pass);
        let mut reasons: Vec<&str> = r
            .outcomes
            .iter()
            .flat_map(|o| o.skipped.iter().map(|s| s.reason.as_str()))
            .collect();
        reasons.sort();
        reasons.dedup();
        for reason in reasons.iter().take(8) {
            println!("    {reason}");
        }
    }
    setup_support::progress("./configure && make of pristine gzip (about a minute)");
    let (ok, log) = sh(&copy, "./configure --quiet >/dev/null && make -j2 >/dev/null");
    assert!(ok, "gzip does not build:\n{log}");
    let stems: Vec<String> = files
        .iter()
        .map(|(p, _)| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    setup_support::progress("gcc -Wall on each file, before and after the passes");
    let before: Vec<Option<BTreeSet<String>>> = stems.iter().map(|s| warnings(&copy, s)).collect();
    for ((path, _), text) in files.iter().zip(&texts) {
        std::fs::write(path, text).unwrap();
    }
    let mut new_warnings = Vec::new();
    for (stem, before) in stems.iter().zip(&before) {
        let Some(before) = before else { continue };
        let after = warnings(&copy, stem).unwrap_or_else(|| panic!("{stem}.c no longer compiles"));
        new_warnings.extend(after.difference(before).cloned());
    }
    let compiled = before.iter().flatten().count();
    let original = before.iter().flatten().map(BTreeSet::len).sum::<usize>();
    println!("gcc -Wall: {compiled} files compiled, {original} warnings before the passes");
    assert!(
        new_warnings.is_empty(),
        "warnings the passes introduced:\n{}",
        new_warnings.join("\n")
    );
    let (ok, log) = sh(&copy, "make -j2 >/dev/null");
    assert!(ok, "gzip does not build after the passes:\n{log}");
    setup_support::progress("make check of the transformed gzip");
    let (ok, log) = sh(&copy, "make -j2 check");
    let summary: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("# ") || l.starts_with("PASS") || l.starts_with("FAIL"))
        .collect();
    println!("{}", summary.join("\n"));
    assert!(ok, "gzip's make check fails after the passes:\n{log}");
}
