//! Conditional groups the first reading does not read well
//! (tests/fixtures/recovery): two definitions in one group, each behind a
//! macro no file defines, whose two errors in one recovery round must not
//! make the group look unreadable; a type and a calling convention no file
//! defines before a definition's name (`static BOOL WINAPI handler(…)`);
//! a chain of eight branches, each a platform's definition, all read by
//! the alternative passes. parse-health counts every function understood,
//! and a function-entry print woven into each configuration, built with
//! warnings as errors, enters each of its functions and prints what the
//! original prints.

mod program_support;
mod weft_support;

use std::path::{Path, PathBuf};

use weft::c::{FileHealth, Sources};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recovery")
}

#[test]
fn every_definition_is_understood_in_some_pass() {
    let sources = Sources::collect(&[fixture()], false).unwrap();
    let front_end = sources.front_end(None).unwrap();
    for (path, text) in &sources.parsed {
        let passes = front_end.parse_passes(path, text.clone());
        let health = FileHealth::of_passes(&passes);
        let expected = if path.ends_with("platforms.c") {
            // Eight definitions of platform, and main.
            9
        } else {
            // take, release, handler, main.
            4
        };
        assert_eq!(
            (health.functions, health.functions_ok),
            (expected, expected),
            "{}: {:?}",
            path.display(),
            health.regions
        );
        assert!(
            health.regions.is_empty(),
            "{}: {:?}",
            path.display(),
            health.regions
        );
    }
}

/// Builds `source` with `flags` and warnings as errors, runs it: its
/// stdout and stderr.
fn build_and_run(source: &Path, exe: &Path, flags: &[&str]) -> (String, String) {
    let flags: Vec<&str> = ["-std=gnu99"].into_iter().chain(flags.iter().copied()).collect();
    program_support::build_strict(source, exe, &flags);
    program_support::run_ok(exe, &[], None)
}

#[test]
fn every_configuration_woven_enters_its_functions() {
    let tmp = tempfile::tempdir().unwrap();
    let aspect = tmp.path().join("entry.lara");
    std::fs::write(
        &aspect,
        "aspectdef Entry\n select function.first_stmt end\n apply\n  $first_stmt.insert before %{fprintf(stderr, \"enter [[$function.name]]\\n\");}%;\n end\nend\n",
    )
    .unwrap();
    let out = tmp.path().join("woven");
    weft_support::weave(aspect.to_str().unwrap(), &[], &out, &fixture());
    let woven = out.join("recovery");
    let threads: &[&str] = &["-DHAS_THREADS=1", "-DMY_INLINE=inline"];
    let windows: &[&str] = &["-D_WIN32", "-DBOOL=int", "-DWINAPI=", "-DDWORD=unsigned"];
    let groups: [(&[&str], &[&str]); 3] = [
        (&[], &["main"]),
        (threads, &["main", "take", "release"]),
        (windows, &["main", "handler"]),
    ];
    let platforms: Vec<String> = (0..7).map(|k| format!("-DP{k}")).collect();
    let mut cases: Vec<(&str, Vec<&str>, Vec<&str>)> = groups
        .iter()
        .map(|(flags, entered)| ("groups.c", flags.to_vec(), entered.to_vec()))
        .collect();
    cases.push(("platforms.c", vec![], vec!["main", "platform"]));
    cases.extend(
        platforms
            .iter()
            .map(|p| ("platforms.c", vec![p.as_str()], vec!["main", "platform"])),
    );
    for (file, flags, entered) in cases {
        let (expected, _) = build_and_run(&fixture().join(file), &tmp.path().join("original"), &flags);
        let (stdout, stderr) = build_and_run(&woven.join(file), &tmp.path().join("woven-exe"), &flags);
        assert_eq!(stdout, expected, "{file} {flags:?}");
        let mut got: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("enter ")).collect();
        got.sort_unstable();
        let mut want = entered.clone();
        want.sort_unstable();
        assert_eq!(got, want, "{file} {flags:?}: each function entered once");
    }
}
