//! The patch-triage examples end to end, as docs/triage.md runs them:
//! `weft multiversion` builds one meta program from the original and every
//! diff, each revision of it must behave as that diff applied alone and
//! built alone, and `weft triage` must find the same behaviour classes as
//! those separate builds and tell wrong patches from correct ones.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod program_support;
mod triage_support;
mod weft_support;

use triage_support::example;

fn gcc(source: &Path, exe: &Path) {
    program_support::gcc(&[], source, exe);
}

/// Exit status and stdout of `exe` with `input` on stdin.
fn run(exe: &Path, input: &Path, rev: Option<usize>) -> (Option<i32>, String) {
    let mut cmd = Command::new(exe);
    cmd.stdin(Stdio::from(std::fs::File::open(input).unwrap()))
        .env_remove("WEFT_REV");
    if let Some(r) = rev {
        cmd.env("WEFT_REV", r.to_string());
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn intro_meta_program_matches_each_patch_and_triage_finds_its_classes() {
    let ex = example("intro");
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    std::fs::copy(ex.join("prog.c"), tree.join("prog.c")).unwrap();
    let patches = triage_support::patches(&ex);
    triage_support::multiversion(dir.path(), &patches);
    let meta = dir.path().join("meta/prog");
    gcc(&dir.path().join("meta/prog.c"), &meta);

    let mut inputs: Vec<PathBuf> = std::fs::read_dir(ex.join("inputs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    // Each revision alone: the original with its diff applied by GNU patch.
    let mut behaviours: BTreeMap<Vec<(Option<i32>, String)>, Vec<usize>> = BTreeMap::new();
    for rev in 0..=patches.len() {
        let alone = dir.path().join(format!("rev{rev}"));
        std::fs::create_dir(&alone).unwrap();
        std::fs::copy(ex.join("prog.c"), alone.join("prog.c")).unwrap();
        if rev > 0 {
            let status = Command::new("patch")
                .args(["-s", "-p1", "-i", &patches[rev - 1]])
                .current_dir(&alone)
                .status()
                .unwrap();
            assert!(status.success(), "{} does not apply", patches[rev - 1]);
        }
        gcc(&alone.join("prog.c"), &alone.join("prog"));
        let mut seen = Vec::new();
        for input in &inputs {
            let want = run(&alone.join("prog"), input, None);
            assert_eq!(
                run(&meta, input, Some(rev)),
                want,
                "revision {rev} on {}",
                input.display()
            );
            seen.push(want);
        }
        behaviours.entry(seen).or_default().push(rev);
    }

    let report = dir.path().join("triage.json");
    let range = format!("1-{}", patches.len());
    let triaged = weft_support::command()
        .args([
            "triage",
            "--revisions",
            &range,
            "--inputs",
            ex.join("inputs").to_str().unwrap(),
            "--truth",
            ex.join("truth.txt").to_str().unwrap(),
            "--json",
            report.to_str().unwrap(),
            "--",
            meta.to_str().unwrap(),
        ])
        .current_dir(dir.path())
        .output()
        .expect("weft runs");
    weft_support::exited(&triaged, 0);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let mut found: Vec<Vec<usize>> = json["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| serde_json::from_value(c["revisions"].clone()).unwrap())
        .collect();
    found.sort();
    let mut expected: Vec<Vec<usize>> = behaviours.into_values().collect();
    expected.sort();
    assert_eq!(found, expected);
    assert_eq!(json["truth"]["purity"], 1.0);
    assert_eq!(json["told_apart"], true);
    // Every class, wrong or correct, is reached in at most three answers.
    assert!(json["depth"].as_u64().unwrap() <= 3, "{}", json["depth"]);
}
