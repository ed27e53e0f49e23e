//! The Siemens programs' faulty versions as patches (written with `diff -u`
//! by scripts/triage-siemens.py): every patch is accepted alone and all of
//! a program's together, and every revision of the meta program answers
//! each test as its version built alone does. Three programs (schedule's
//! `main` an implicit-int old-style definition), every 80th
//! test of their universe, to stay fast; the full table (all six
//! programs, every test) is in docs/triage.md with the command that
//! measures it.

mod program_support;

use std::path::PathBuf;
use std::process::Command;

/// The Siemens archives: `WEFT_SIEMENS`, or `../shared/benchmarks/siemens`
/// beside the checkout.
fn siemens() -> PathBuf {
    std::env::var_os("WEFT_SIEMENS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/siemens"))
}

#[test]
fn siemens_patches_are_accepted_and_the_meta_program_equals_each_version() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("scripts/triage-siemens.py"))
        .arg("--siemens")
        .arg(siemens())
        .args(["--weft", env!("CARGO_BIN_EXE_weft"), "--every", "80"])
        .args(["schedule", "schedule2", "printtokens2"])
        .output()
        .expect("python3 runs");
    let table = String::from_utf8_lossy(&out.stdout);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{table}\n{said}");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| {
            ["| schedule |", "| schedule2 |", "| printtokens2 |"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 3, "{table}\n{said}");
    for row in rows {
        // | program | versions | alone | together | tests | runs | disagreements | …
        assert_eq!(row[2], row[3], "every patch accepted alone: {row:?}\n{said}");
        assert_eq!(row[4], "yes", "all accepted together: {row:?}\n{said}");
        assert!(row[5].parse::<usize>().unwrap() > 20, "{row:?}");
        assert_eq!(
            row[7], "0",
            "the meta program disagrees with a version alone: {row:?}"
        );
        assert_eq!(row[8], "0", "a version alone is nondeterministic: {row:?}");
    }
}

/// replace's version 13 (`i = i + 2` where `i + 1` was) steps over the
/// line's terminating NUL and reads uninitialised stack: built alone, it
/// answers a test differently once only the size of its environment (at
/// the top of the stack) changes. scripts/triage-siemens.py counts such
/// tests as the version's own nondeterminism, not as disagreements of the
/// meta program.
#[test]
fn replace_version_13_alone_depends_on_memory_layout() {
    let dir = tempfile::tempdir().unwrap();
    let unpacked = Command::new("tar")
        .arg("xzf")
        .arg(siemens().join("replace.tar.gz"))
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unpacked.success());
    let base = dir.path().join("replace");
    let exe = dir.path().join("v13");
    program_support::gcc(
        &["-std=c99", "-w", "-O0"],
        &base.join("versions.alt/versions.orig/v13/replace.c"),
        &exe,
    );
    let answers: std::collections::BTreeSet<Vec<u8>> = [1, 100, 1000, 4000]
        .iter()
        .map(|&pad| {
            Command::new(&exe)
                .args(["1*", "&%[-]]]@t&&"])
                .stdin(std::fs::File::open(base.join("inputs/moni/rr17.t")).unwrap())
                .env("WEFT_PAD", "x".repeat(pad))
                .output()
                .unwrap()
                .stdout
        })
        .collect();
    assert!(
        answers.len() > 1,
        "one answer under every environment: {answers:?}"
    );
}
