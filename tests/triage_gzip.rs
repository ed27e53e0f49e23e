//! The gzip patch-triage example (examples/patch-triage/gzip) end to end:
//! one meta program of gzip 1.12 and twelve patches for one bug, built
//! once with gzip's own `./configure && make`; every revision must answer
//! every test command as that patch applied alone and built alone does,
//! and `weft triage` must separate wrong patches from correct ones in at
//! most three questions.
//!
//! Slow (two gzip builds, twelve rebuilds of the patched file): run with
//! `cargo test --test triage_gzip -- --ignored` (scripts/test.sh does).

mod setup_support;
mod triage_support;
mod weft_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use triage_support::lines;

fn example() -> PathBuf {
    triage_support::example("gzip")
}

fn sh(dir: &Path, script: &str, env: &[(&str, String)]) -> (Option<i32>, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env_remove("WEFT_REV")
        .envs(env.iter().map(|(k, v)| (k, v.as_str())))
        .output()
        .expect("sh runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn must(dir: &Path, script: &str) {
    let (status, out, err) = sh(dir, script, &[]);
    assert_eq!(status, Some(0), "`{script}` failed:\n{out}{err}");
}

#[test]
#[ignore = "slow: builds gzip twice and rebuilds it per patch"]
fn gzip_meta_program_matches_each_patch_and_triage_separates_wrong_ones() {
    let ex = example();
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    must(
        tmp,
        &format!(
            "cp -a '{}' tree && cp -a tree alone",
            setup_support::gzip_dir().display()
        ),
    );
    let patches = triage_support::patches(&ex);
    triage_support::multiversion(tmp, &patches);
    setup_support::progress("./configure && make of the gzip meta program and of plain gzip");
    for tree in ["meta", "alone"] {
        must(
            &tmp.join(tree),
            "./configure --quiet >/dev/null && make -j2 >/dev/null 2>&1",
        );
    }
    let inputs = ex.join("inputs").display().to_string();
    let tests = lines(&ex.join("tests.txt"));
    setup_support::progress("each patch applied alone and rebuilt, against the meta program");
    for rev in 0..=patches.len() {
        // The alone tree gets the original file back, then this patch.
        must(tmp, "cp tree/inflate.c alone/inflate.c");
        if rev > 0 {
            must(
                &tmp.join("alone"),
                &format!("patch -s -p1 -i '{}'", patches[rev - 1]),
            );
        }
        must(&tmp.join("alone"), "make gzip >/dev/null 2>&1");
        for test in &tests {
            let env = [("INPUTS", inputs.clone())];
            let want = sh(&tmp.join("alone"), test, &env);
            let got = sh(
                &tmp.join("meta"),
                test,
                &[("INPUTS", inputs.clone()), ("WEFT_REV", rev.to_string())],
            );
            assert_eq!((got.0, &got.1), (want.0, &want.1), "revision {rev}: {test}");
        }
    }

    let range = format!("1-{}", patches.len());
    let report = tmp.join("triage.json");
    let triaged = weft_support::command()
        .args(["triage", "--revisions", &range, "--tests"])
        .arg(ex.join("tests.txt"))
        .arg("--truth")
        .arg(ex.join("truth.txt"))
        .arg("--json")
        .arg(&report)
        .current_dir(tmp.join("meta"))
        .env("INPUTS", &inputs)
        .output()
        .unwrap();
    assert_eq!(
        triaged.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&triaged.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["truth"]["purity"], 1.0);
    assert_eq!(json["told_apart"], true);
    assert!(json["depth"].as_u64().unwrap() <= 3, "{}", json["depth"]);
}
