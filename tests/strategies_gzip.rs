//! The strategies over gzip 1.12, with gzip's own unmodified build. Slow
//! (each gzip configure and make takes a minute or more), so kept out of a
//! plain `cargo test`; scripts/test.sh runs them:
//! `cargo test --test strategies_gzip -- --ignored --nocapture`.
//!
//! FREQ is tested fully through scripts/gzip-walkthrough.sh: freq_report
//! woven, built, `make check` counting, `weft ranges freq-report`, FREQ
//! woven with that report, built, `make check` passing and recording,
//! `weft ranges show`. The five others are woven and compiled only: their
//! top-level .c files replace FREQ's in the configured tree and `make`
//! rebuilds gzip, which then must still compress and decompress a file
//! byte for byte.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn gzip_sources() -> PathBuf {
    setup_support::gzip_dir()
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("command runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs the walkthrough for FREQ into `work` and checks every stage.
fn freq_walkthrough(work: &Path) {
    setup_support::progress(
        "FREQ walkthrough: freq_report woven, gzip built and make check counted, FREQ woven, built and checked (several minutes)",
    );
    let out = run(Command::new(root().join("scripts/gzip-walkthrough.sh"))
        .arg(work)
        .arg("freq")
        .env("WEFT", env!("CARGO_BIN_EXE_weft")));
    println!("{out}");
    for stage in ["freq_report", "freq"] {
        assert_eq!(
            read(&work.join(stage).join("status")).trim(),
            "checked",
            "{stage}"
        );
        let counts = read(&work.join(stage).join("weave.counts"));
        assert!(counts.starts_with("join points: "), "{stage}: {counts}");
    }
    let report: serde_json::Value = serde_json::from_str(&read(&work.join("freq.json"))).unwrap();
    let total = report["total"].as_u64().expect("a total");
    assert!(total > 1000, "make check assigns a lot: {total}");
    // gzip's hot variables are in its deflate and bit I/O loops.
    let chosen: Vec<&String> = report
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, v)| *k != "total" && v.as_u64().unwrap() as f64 / total as f64 > 0.01)
        .map(|(k, _)| k)
        .collect();
    assert!(!chosen.is_empty());
    let shown = read(&work.join("freq/ranges.txt"));
    for key in &chosen {
        let (function, variable) = key.split_once('#').unwrap();
        assert!(
            shown
                .lines()
                .any(|l| l.split_whitespace().take(2).eq([function, variable])),
            "{key} has a range:\n{shown}"
        );
    }
}

/// Weaves `aspect` with `args` over gzip's top-level .c files into `out`,
/// or only runs it (`--diff`) without one. Returns what it printed.
fn weave(work: &Path, aspect: &str, args: &[String], out: Option<&Path>) -> String {
    let mut cmd = weft_support::command();
    cmd.current_dir(work)
        .args(["weave", "--aspect"])
        .arg(root().join("aspects").join(aspect));
    for arg in args {
        cmd.args(["--arg", arg]);
    }
    for glob in ["lib/**", "sample/**", "tests/**", "doc/**"] {
        cmd.args(["--exclude", glob]);
    }
    match out {
        Some(out) => cmd.arg("--output").arg(out),
        None => cmd.arg("--diff"),
    };
    run(cmd.arg(gzip_sources()))
}

#[test]
#[ignore = "slow: configures, builds and tests gzip twice, then rebuilds it five times"]
fn the_six_strategies_over_gzip() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    freq_walkthrough(work);

    let fanin = work.join("fanin.json");
    weave(
        work,
        "fanin_report.lara",
        &[format!("report={}", fanin.display())],
        None,
    );
    let freq = work.join("freq.json");
    let both = vec![
        format!("freqReport={}", freq.display()),
        format!("faninReport={}", fanin.display()),
    ];
    let tree = work.join("freq/woven/gzip-1.12");
    let doc = gzip_sources().join("gzip.doc");
    for (aspect, args) in [
        ("ascv3.lara", vec![]),
        ("ascv3_s.lara", vec![]),
        ("fanin.lara", vec![format!("report={}", fanin.display())]),
        // fill_window#m alone takes 96% of the assignments of gzip's make
        // check, so at the default 1% FREQ picks only it and COMBAND nothing;
        // at 0.1% the intersection is not empty.
        (
            "comband.lara",
            [both.clone(), vec!["freqThreshold=0.001".into()]].concat(),
        ),
        ("combor.lara", both.clone()),
    ] {
        setup_support::progress(&format!("{aspect}: weave, rebuild gzip, compress and decompress"));
        let out = work.join(aspect).with_extension("");
        let log = weave(work, aspect, &args, Some(&out));
        let counts = log.lines().find(|l| l.starts_with("join points: "));
        println!("{aspect}: {}", counts.unwrap_or("no counts"));
        assert!(counts.is_some(), "{aspect}:\n{log}");
        for entry in std::fs::read_dir(out.join("gzip-1.12")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "c") {
                std::fs::copy(&path, tree.join(path.file_name().unwrap())).unwrap();
            }
        }
        run(Command::new("make").args(["-j2", "gzip"]).current_dir(&tree));
        let records = work.join(aspect).with_extension("records");
        let packed = run(Command::new("sh")
            .arg("-c")
            .arg("./gzip -c \"$1\" | ./gzip -dc | cmp - \"$1\" && echo same")
            .arg("sh")
            .arg(&doc)
            .current_dir(&tree)
            .env("WEFT_OUT", &records));
        assert_eq!(packed.trim(), "same", "{aspect}");
        assert!(
            std::fs::read_dir(&records).is_ok_and(|mut d| d.next().is_some()),
            "{aspect} recorded"
        );
    }
}
