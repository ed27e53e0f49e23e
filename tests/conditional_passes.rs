//! Functions in the branches the front end does not keep
//! (tests/fixtures/conditional/prog.c: different functions under `#ifdef`
//! / `#else`, an `#if` / `#elif` / `#else` chain, groups nested in the kept
//! and in the unread branch, a group in
//! a body choosing between two statements, a header split across
//! branches): the alternative passes read them, parse-health counts them,
//! and a weave with a function-entry print instruments every
//! configuration. Each configuration, built with warnings as errors, enters
//! each of its functions exactly once and prints what the original prints.

mod program_support;
mod weft_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use weft::c::{FileHealth, Sources};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conditional/prog.c")
}

const CONFIGURATIONS: [&[&str]; 6] = [
    &[],
    &["-DDEBUG"],
    &["-DDEBUG", "-DVERBOSE"],
    &["-DVERBOSE"],
    &["-DA"],
    &["-DB"],
];

#[test]
fn every_branch_is_read_by_some_pass() {
    let sources = Sources::collect(&[fixture()], false).unwrap();
    let front_end = sources.front_end(None).unwrap();
    let (path, text) = &sources.parsed[0];
    let first = front_end.parse(path, text.clone());
    let health = FileHealth::of(&first);
    // The first reading keeps one branch of each group.
    assert_eq!((health.functions, health.functions_ok), (7, 7));
    let passes = front_end.parse_passes(path, text.clone());
    assert!(
        passes.len() > 2,
        "the #elif chain and the nested group need more than one alternative"
    );
    let health = FileHealth::of_passes(&passes);
    // check_debug and check_release, pick three times, trace three times,
    // scale three times, choose, split twice (its headers), main.
    assert_eq!(
        (health.functions, health.functions_ok),
        (15, 15),
        "{:?}",
        health.regions
    );
    assert!(health.regions.is_empty(), "{:?}", health.regions);
}

/// Builds `source` as C99 with `flags` and warnings as errors, runs it:
/// its stdout.
fn build_and_run(source: &Path, exe: &Path, flags: &[&str]) -> String {
    let flags: Vec<&str> = ["-std=c99"].into_iter().chain(flags.iter().copied()).collect();
    program_support::build_strict(source, exe, &flags);
    program_support::run_ok(exe, &[], None).0
}

/// Weaves the fixture with `aspect` into `out`, asserts the weave
/// succeeded and gives its standard error.
fn weave_fixture(aspect: &Path, out: &Path) -> String {
    let weave = weft_support::command()
        .args(["weave", "--aspect"])
        .arg(aspect)
        .arg("--output")
        .arg(out)
        .arg(fixture())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&weave.stderr).into_owned();
    assert!(weave.status.success(), "{stderr}");
    stderr
}

#[test]
fn a_weave_instruments_every_configuration_once() {
    let tmp = tempfile::tempdir().unwrap();
    let aspect = tmp.path().join("entry.lara");
    std::fs::write(
        &aspect,
        "aspectdef Entry\n    select function.first_stmt end\n    apply\n        \
         $first_stmt.insert before %{printf(\"enter %s\\n\", __func__);}%;\n    end\nend\n",
    )
    .unwrap();
    let out = tmp.path().join("woven");
    let stderr = weave_fixture(&aspect, &out);
    assert!(!stderr.contains("warning"), "{stderr}");
    let woven = out.join("prog.c");
    for flags in CONFIGURATIONS {
        let plain = build_and_run(&fixture(), &tmp.path().join("plain"), flags);
        let output = build_and_run(&woven, &tmp.path().join("woven-exe"), flags);
        let (entered, rest): (Vec<&str>, Vec<&str>) = output.lines().partition(|l| l.starts_with("enter "));
        assert_eq!(rest, plain.lines().collect::<Vec<_>>(), "{flags:?}");
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for line in entered {
            *counts.entry(&line["enter ".len()..]).or_default() += 1;
        }
        let check = if flags.contains(&"-DDEBUG") {
            "check_debug"
        } else {
            "check_release"
        };
        let expected: BTreeMap<&str, usize> = [check, "choose", "main", "pick", "scale", "split", "trace"]
            .into_iter()
            .map(|f| (f, 1))
            .collect();
        assert_eq!(counts, expected, "{flags:?}");
    }
}

/// A monitor's table in shared text is sized by what its reading saw: an
/// alternative reading whose shared text was woven otherwise gives no
/// edit (its slots would not match the first reading's table), and the
/// weave says so.
#[test]
fn an_alternative_that_wove_shared_text_otherwise_is_reported_not_taken() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("woven");
    let aspect = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("aspects/ascv3.lara");
    let stderr = weave_fixture(&aspect, &out);
    assert!(stderr.contains("only another reading sees not woven"), "{stderr}");
    let woven = std::fs::read_to_string(out.join("prog.c")).unwrap();
    let original = std::fs::read_to_string(fixture()).unwrap();
    // The release branch of check_release is as written.
    let release = "static int check_release(int v) {\n    return v >= 0;\n";
    assert!(original.contains(release) && woven.contains(release));
}
