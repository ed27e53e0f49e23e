//! weft and Daikon 5.8.25 read each other's traces: a program with global
//! arrays, structs reached through pointers, strings and a parameter it
//! changes, and arrays behind pointers whose length a loop bounds
//! (tests/fixtures/daikon/shapes.c) is woven, built and run; Daikon learns
//! from `weft invariants export` without complaint, weft learns sequence
//! invariants over those arrays, and the same invariants from the export as
//! from its own traces.

mod program_support;
mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use setup_support::{daikon_dir, require_tool};
use weft_support::{exited, weave, weft, weft_exits};

/// tests/fixtures/daikon/shapes.c woven, built and run with seeds 1..=4:
/// the run directories.
fn traced_runs(dir: &Path) -> Vec<String> {
    traced_runs_of(dir, "daikon/shapes.c", &[])
}

/// tests/fixtures/FIXTURE woven with aspects/invariants.lara (and the
/// weave arguments `args`), built and run with arguments 1..=4: the run
/// directories.
fn traced_runs_of(dir: &Path, fixture: &str, args: &[&str]) -> Vec<String> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(fixture);
    weave("invariants.lara", args, &dir.join("woven"), &fixture);
    let exe = dir.join("prog");
    program_support::gcc(
        &["-O0"],
        &dir.join("woven").join(fixture.file_name().unwrap()),
        &exe,
    );
    (1..=4)
        .map(|seed| {
            let run = dir.join(format!("r{seed}"));
            let status = Command::new(&exe)
                .arg(seed.to_string())
                .env("WEFT_OUT", &run)
                .env("WEFT_TRACE_SAMPLING", "all")
                .output()
                .unwrap()
                .status;
            assert!(status.success());
            run.display().to_string()
        })
        .collect()
}

fn export(dir: &Path, runs: &[String]) -> PathBuf {
    let dtrace = dir.join("all.dtrace");
    let mut args = vec!["invariants", "export", "-o", dtrace.to_str().unwrap()];
    args.extend(runs.iter().map(String::as_str));
    weft_exits(0, &args);
    dtrace
}

#[test]
fn daikon_learns_from_the_export_without_complaint() {
    require_tool("java");
    let jars = daikon_dir().join("*");
    let tmp = tempfile::tempdir().unwrap();
    let dtrace = export(tmp.path(), &traced_runs(tmp.path()));
    let text = std::fs::read_to_string(&dtrace).unwrap();
    // Arrays are Daikon's pair: a pointer variable and its elements.
    assert!(
        text.contains("  variable table[..]\n    var-kind array\n    enclosing-var table\n    array 1\n")
    );
    // A member through a traced pointer is a field of it.
    assert!(text.contains("  variable p->x\n    var-kind field x\n    enclosing-var p\n"));
    // An array behind a pointer parameter is its elements under that pointer.
    assert!(text.contains("  variable v[..]\n    var-kind array\n    enclosing-var v\n    array 1\n"));
    // Daikon writes its .inv.gz into the working directory: the scratch.
    let out = Command::new("java")
        .current_dir(tmp.path())
        .arg("-cp")
        .arg(&jars)
        .arg("daikon.Daikon")
        .arg(&dtrace)
        .output()
        .expect("java runs");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "Daikon failed:\n{printed}");
    for complaint in ["Exception", "\tat daikon.", "arning", "rror", "all.dtrace"] {
        assert!(
            !printed.contains(complaint),
            "Daikon printed {complaint:?}:\n{printed}"
        );
    }
    // Daikon saw the arrays' elements, the fields through the pointer, the
    // string and the changed parameter.
    for expected in [
        "table[] == [1, 2, 3, 5, 8, 13, 21, 34]",
        "weights[] elements >= 0.5",
        "p->x - dx - orig(p->x) == 0",
        "shapes.c.count():::EXIT",
        "n <= orig(n)",
        "a[] sorted by <",
        "len == size(a[])",
        "v[] sorted by <",
    ] {
        assert!(
            printed.contains(expected),
            "{expected} missing from Daikon's output:\n{printed}"
        );
    }
}

/// The invariants `weft invariants learn` prints at each point, by point.
fn learned_by_point(runs: &[String]) -> Vec<(String, Vec<String>)> {
    let mut args = vec!["invariants", "learn"];
    args.extend(runs.iter().map(String::as_str));
    let (text, _) = weft_exits(0, &args);
    text.split("\n=====")
        .filter_map(|block| {
            let mut lines = block.lines().filter(|l| !l.starts_with('=') && !l.is_empty());
            let point = lines.next()?.to_string();
            Some((point, lines.map(String::from).collect()))
        })
        .collect()
}

#[test]
fn arrays_behind_pointers_are_sequences_as_long_as_their_loop_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let learned = learned_by_point(&traced_runs(tmp.path()));
    let at = |point: &str| {
        let found = learned.iter().find(|(p, _)| p == point);
        found
            .unwrap_or_else(|| panic!("no {point} in {learned:?}"))
            .1
            .clone()
    };
    // The fixture passes sorted arrays whose smallest element is the seed
    // (1..=4), `weighted` the same arrays from their second element.
    for (function, array, length, least) in [
        ("total", "a", "len", 1),
        ("below", "a", "len", 1),
        ("weighted", "a", "len", 3),
        ("largest", "v", "s->n", 1),
    ] {
        for point in [
            format!("shapes.c.{function}():::ENTER"),
            format!("shapes.c.{function}():::EXIT"),
        ] {
            let invariants = at(&point);
            let size = format!("size({array}[])");
            let related = [format!("{size} == {length}"), format!("{length} == {size}")];
            for expected in [
                format!("{array}[] sorted by <"),
                format!("{array}[] elements >= {least}"),
            ] {
                assert!(
                    invariants.contains(&expected),
                    "{expected} not at {point}: {invariants:?}"
                );
            }
            assert!(
                related.iter().any(|r| invariants.contains(r)),
                "{size} is not {length} at {point}: {invariants:?}"
            );
        }
    }
    // `head` reads a[0] only: how many elements follow is not known there.
    for point in ["shapes.c.head():::ENTER", "shapes.c.head():::EXIT"] {
        let invariants = at(point);
        assert!(invariants.iter().any(|i| i.contains("*a")), "{invariants:?}");
        assert!(!invariants.iter().any(|i| i.contains("a[]")), "{invariants:?}");
    }
}

#[test]
fn a_local_pointer_naming_an_array_is_a_sequence_as_long_as_the_array() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = traced_runs_of(tmp.path(), "daikon/named.c", &["--arg", "traceLoopHeads=true"]);
    let learned = learned_by_point(&runs);
    let (point, invariants) = learned
        .iter()
        .find(|(p, _)| p.starts_with("named.c.scaled():::POINT"))
        .unwrap_or_else(|| panic!("no loop head in {learned:?}"));
    // The pointers' elements are their arrays' (a stack array, seed..seed+5
    // for seeds 1..=4, and a static one), as many as the arrays hold.
    for expected in [
        "buf[] == p[]",
        "size(buf[]) == size(p[])",
        "steps[] == q[]",
        "size(buf[]) == 6",
        "buf[] sorted by <",
    ] {
        assert!(
            invariants.iter().any(|i| i == expected),
            "{expected} not at {point}: {invariants:?}"
        );
    }
    // The allocation's size is not asked, and t moves: pointers, never
    // sequences.
    for pointer in ["r", "t"] {
        assert!(
            invariants.iter().any(|i| i.starts_with(&format!("{pointer} "))),
            "{invariants:?}"
        );
        assert!(
            !invariants.iter().any(|i| i.contains(&format!("{pointer}[]"))),
            "{invariants:?}"
        );
    }
}

#[test]
fn learning_the_export_gives_what_learning_the_traces_gives() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = traced_runs(tmp.path());
    let dtrace = export(tmp.path(), &runs);
    let learn = |inputs: &[&str]| weft_exits(0, [&["invariants", "learn", "--json"][..], inputs].concat()).0;
    let from_traces = learn(&runs.iter().map(String::as_str).collect::<Vec<_>>());
    let from_dtrace = learn(&[dtrace.to_str().unwrap()]);
    // orig(x) comes back from the nonces that pair exits with entries.
    assert!(from_traces.contains("orig(p->x)"), "{from_traces}");
    assert_eq!(from_dtrace, from_traces);
}

#[test]
fn a_run_of_another_program_is_not_taken_for_a_passing_run() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = traced_runs(&tmp.path().join("shapes"));
    let learned = tmp.path().join("learned.json");
    let mut args = vec!["invariants", "learn", "-o", learned.to_str().unwrap()];
    args.extend(runs.iter().map(String::as_str));
    weft_exits(0, &args);
    let check = |run: &str| weft(["invariants", "check", "--learned", learned.to_str().unwrap(), run]);
    let (_, same) = exited(&check(&runs[0]), 0);
    assert!(!same.contains("no training run reached"));
    let other = traced_runs_of(&tmp.path().join("calls"), "trace/calls.c", &[]);
    let (_, stderr) = exited(&check(&other[0]), 2);
    assert!(
        stderr.contains("points no training run reached; shares 0 of its"),
        "{stderr}"
    );
    assert!(
        stderr.contains("share no program point with the training runs"),
        "{stderr}"
    );
}
