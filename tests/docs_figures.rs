//! The figures the README and the docs quote about gzip 1.12 that take
//! seconds to measure are measured here and must appear, exactly, in the
//! text: a change that moves one fails until the docs say the new figure.
//! (Figures that need gzip built and its `make check` run come from
//! scripts/gzip-walkthrough.sh, as the docs say.)

#[path = "setup_support/mod.rs"]
mod setup_support;
mod sources_support;
mod weft_support;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `weft ARGS PATHS…` run in the checkout (the docs' commands name
/// `aspects/…` from there), which must succeed: its standard output.
fn weft_in_checkout(args: &[&str], paths: &[PathBuf]) -> String {
    let out = weft_support::command()
        .args(args)
        .args(paths)
        .current_dir(root())
        .output()
        .expect("weft runs");
    weft_support::exited(&out, 0).0
}

/// gzip's own top-level .c files (not gnulib's, the tests' or the samples').
fn own_files(gzip: &Path) -> Vec<PathBuf> {
    sources_support::c_files(gzip)
}

/// `understood/total` function definitions, as `weft parse-health` says.
fn health(paths: &[PathBuf]) -> (u64, u64) {
    let json: serde_json::Value =
        serde_json::from_str(&weft_in_checkout(&["parse-health", "--json"], paths)).unwrap();
    (
        json["functions_ok"].as_u64().unwrap(),
        json["functions"].as_u64().unwrap(),
    )
}

fn assert_quoted(doc: &str, figure: &str) {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    // Markdown reflows prose: compare with runs of whitespace made one space.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(figure), "{doc} must say `{figure}` (measured now)");
}

#[test]
fn front_end_figures_are_measured() {
    let gzip = setup_support::gzip_dir();
    let (ok, total) = health(&own_files(&gzip));
    assert_quoted(
        "README.md",
        &format!("{ok} of {total} function definitions are understood"),
    );
    assert_quoted(
        "docs/front-end.md",
        &format!("stay at {ok}/{total} function definitions"),
    );
    let (ok, total) = health(&[gzip]);
    assert_quoted("README.md", &format!("Whole tree with gnulib: {ok}/{total}."));
    assert_quoted(
        "docs/front-end.md",
        &format!("understands {ok}/{total} definitions"),
    );
}

/// `selected / advised` of a weave of gzip's own files, the whole tree
/// given, as in the walkthrough.
fn weave_counts(aspect: &str) -> String {
    let out = tempfile::tempdir().unwrap();
    let woven = out.path().join("woven");
    let log = weft_in_checkout(
        &[
            "weave",
            "--aspect",
            &format!("aspects/{aspect}"),
            "--exclude",
            "lib/**",
            "--exclude",
            "sample/**",
            "--exclude",
            "tests/**",
            "--exclude",
            "doc/**",
            "--output",
            woven.to_str().unwrap(),
        ],
        &[setup_support::gzip_dir()],
    );
    let line = log
        .lines()
        .find_map(|l| l.strip_prefix("join points: "))
        .unwrap_or_else(|| panic!("no counts in:\n{log}"));
    let (selected, advised) = line.split_once(" selected, ").unwrap();
    format!("{selected} / {}", advised.trim_end_matches(" advised"))
}

#[test]
fn strategy_join_point_counts_are_measured() {
    for (row, aspect) in [
        ("freq_report (counts assignments)", "freq_report.lara"),
        ("ASCV3", "ascv3.lara"),
        ("ASCV3_s", "ascv3_s.lara"),
    ] {
        assert_quoted("README.md", &format!("| {row} | {} |", weave_counts(aspect)));
    }
}
