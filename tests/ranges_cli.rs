//! `weft ranges` on record files written byte by byte as docs/runtime.md
//! describes them.

use std::path::{Path, PathBuf};
use std::process::Output;

mod weft_support;
use weft_support::{stderr, stdout};

/// One slot of a generated record: variable `x`-style i64 entries of
/// function `f` in `a.c`, or any kind and type through the full tuple.
struct Slot<'a> {
    kind: &'a str,
    var: &'a str,
    ty: &'a str,
    count: u64,
    lo: [u8; 8],
    hi: [u8; 8],
    flags: u8,
}

fn i64_slot<'a>(var: &'a str, lo: i64, hi: i64, count: u64) -> Slot<'a> {
    Slot {
        kind: "write",
        var,
        ty: "i64",
        count,
        lo: lo.to_le_bytes(),
        hi: hi.to_le_bytes(),
        flags: 1,
    }
}

/// The bytes of a format-v1 record file.
fn record(pid: i64, slots: &[Slot]) -> Vec<u8> {
    let mut names = Vec::new();
    for s in slots {
        for part in [s.kind, "a.c", "f", s.var, s.ty] {
            names.extend_from_slice(part.as_bytes());
            names.push(0);
        }
    }
    let mut d = b"WEFTRNG\0".to_vec();
    let header = [1u32, 0x0102_0304, 64, 32, slots.len() as u32, names.len() as u32];
    for v in header {
        d.extend_from_slice(&v.to_le_bytes());
    }
    for v in [pid, 1, 0, 0] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    for s in slots {
        d.extend_from_slice(&s.count.to_le_bytes());
        d.extend_from_slice(&s.lo);
        d.extend_from_slice(&s.hi);
        d.extend_from_slice(&[s.flags, 0, 0, 0, 0, 0, 0, 0]);
    }
    d.extend_from_slice(&names);
    d
}

fn write(path: &Path, data: &[u8]) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, data).unwrap();
    path.to_path_buf()
}

/// `weft ranges ARGS…` run in `dir` (the tests name records relative to it).
fn ranges(dir: &Path, args: &[&str]) -> Output {
    weft_support::command()
        .arg("ranges")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("weft runs")
}

/// Ten training runs, run-0 … run-9, where `x` took exactly the value i.
fn training(dir: &Path) {
    for i in 0..10 {
        let run = dir.join(format!("train/run-{i}/unit.{i}.ranges"));
        write(&run, &record(100 + i, &[i64_slot("x", i, i, 1)]));
    }
}

fn learned_json(dir: &Path, out: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(out)).unwrap()).unwrap()
}

#[test]
fn show_prints_a_table_and_json() {
    let t = tempfile::tempdir().unwrap();
    let nan = Slot {
        kind: "param",
        var: "d",
        ty: "f64",
        count: 3,
        lo: (-0.0f64).to_le_bytes(),
        hi: f64::INFINITY.to_le_bytes(),
        flags: 3,
    };
    let never = i64_slot("z", 0, 0, 0);
    let never = Slot { flags: 0, ..never };
    write(
        &t.path().join("r.ranges"),
        &record(1, &[i64_slot("x", i64::MIN, 7, 4), nan, never]),
    );
    let o = ranges(t.path(), &["show", "r.ranges"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("function  variable  kind"));
    assert!(lines[1].contains("d") && lines[1].contains("-0.0") && lines[1].contains("inf +NaN"));
    let x: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(x, ["f", "x", "write", "a.c", "-9223372036854775808", "7", "4"]);
    let all = stdout(&ranges(t.path(), &["show", "--all", "r.ranges"]));
    assert!(all.lines().any(|l| l.contains(" z ")), "{all}");

    let json: serde_json::Value =
        serde_json::from_slice(&ranges(t.path(), &["show", "--json", "."]).stdout).unwrap();
    assert_eq!(json["format"], "weft-ranges");
    let d = &json["entries"][0];
    assert_eq!((d["min"].as_f64(), d["max"].as_str()), (Some(-0.0), Some("inf")));
    assert_eq!(json["entries"][1]["min"].as_i64(), Some(i64::MIN));
}

#[test]
fn merge_takes_the_union_of_its_inputs() {
    let t = tempfile::tempdir().unwrap();
    write(&t.path().join("a.ranges"), &record(1, &[i64_slot("x", -2, 3, 2)]));
    write(
        &t.path().join("b.ranges"),
        &record(2, &[i64_slot("x", 1, 9, 5), i64_slot("y", 4, 4, 1)]),
    );
    let o = ranges(t.path(), &["merge", "a.ranges", "b.ranges", "-o", "m.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = learned_json(t.path(), "m.json");
    let x = &m["entries"][0];
    assert_eq!(
        (x["variable"].as_str(), x["min"].as_i64(), x["max"].as_i64()),
        (Some("x"), Some(-2), Some(9))
    );
    assert_eq!(x["count"], 7);
    assert_eq!(m["entries"][1]["variable"], "y");
    // A merged set is itself an input.
    let again = ranges(t.path(), &["merge", "m.json", "-o", "m2.json"]);
    assert!(again.status.success());
    assert_eq!(learned_json(t.path(), "m2.json")["entries"], m["entries"]);
}

#[test]
fn learn_merges_a_seeded_percentage_of_runs() {
    let t = tempfile::tempdir().unwrap();
    training(t.path());
    let learn = |percent: &str, seed: &str, out: &str| {
        let o = ranges(
            t.path(),
            &["learn", "--percent", percent, "--seed", seed, "train", "-o", out],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        learned_json(t.path(), out)
    };
    let a = learn("30", "5", "a.json");
    assert_eq!(a, learn("30", "5", "b.json"), "same seed, same runs");
    let runs: Vec<i64> = a["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().rsplit('-').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(runs.len(), 3, "30% of 10 runs");
    let x = &a["entries"][0];
    assert_eq!(x["min"].as_i64(), runs.iter().min().copied());
    assert_eq!(x["max"].as_i64(), runs.iter().max().copied());
    assert_eq!(x["count"], 3);
    let seeds: Vec<_> = (0..8)
        .map(|s| learn("30", &s.to_string(), "s.json")["runs"].clone())
        .collect();
    assert!(seeds.iter().any(|r| *r != seeds[0]), "seeds choose differently");
    let all = learn("100", "1", "all.json");
    assert_eq!(
        (
            all["entries"][0]["min"].as_i64(),
            all["entries"][0]["max"].as_i64()
        ),
        (Some(0), Some(9))
    );
}

#[test]
fn check_lists_violations_and_follows_the_unseen_policy() {
    let t = tempfile::tempdir().unwrap();
    training(t.path());
    assert!(
        ranges(t.path(), &["learn", "--percent", "100", "train", "-o", "l.json"])
            .status
            .success()
    );
    write(
        &t.path().join("ok/u.ranges"),
        &record(7, &[i64_slot("x", 2, 9, 3)]),
    );
    write(
        &t.path().join("bad/u.ranges"),
        &record(8, &[i64_slot("x", 3, 20, 3)]),
    );
    write(
        &t.path().join("new/u.ranges"),
        &record(9, &[i64_slot("x", 1, 1, 1), i64_slot("w", 5, 6, 2)]),
    );

    let ok = ranges(t.path(), &["check", "l.json", "ok"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));

    let bad = ranges(t.path(), &["check", "l.json", "ok", "bad"]);
    assert_eq!(bad.status.code(), Some(1));
    let text = stdout(&bad);
    assert!(
        text.contains("write a.c:f:x (i64): value 20 outside learned [0, 9]"),
        "{text}"
    );
    assert!(text.contains("1 of 2 runs violate"), "{text}");

    let new = ranges(t.path(), &["check", "l.json", "new"]);
    assert_eq!(new.status.code(), Some(1));
    assert!(stdout(&new).contains("a.c:f:w (i64): unseen in training, run range [5, 6]"));
    let ignored = ranges(t.path(), &["check", "--unseen", "ignore", "l.json", "new"]);
    assert_eq!(ignored.status.code(), Some(0), "{}", stdout(&ignored));
}

#[test]
fn diff_reports_changes_and_exits_like_diff() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("a.ranges"),
        &record(1, &[i64_slot("x", 0, 5, 1), i64_slot("y", 1, 1, 1)]),
    );
    write(
        &t.path().join("b.ranges"),
        &record(2, &[i64_slot("x", 0, 8, 1), i64_slot("z", 2, 2, 1)]),
    );
    let o = ranges(t.path(), &["diff", "a.ranges", "b.ranges"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "~ write a.c:f:x (i64) [0, 5] -> [0, 8]",
            "- write a.c:f:y (i64) [1, 1]",
            "+ write a.c:f:z (i64) [2, 2]",
        ]
    );
    assert_eq!(
        ranges(t.path(), &["diff", "a.ranges", "a.ranges"]).status.code(),
        Some(0)
    );
}

#[test]
fn malformed_inputs_give_clear_errors_naming_the_file() {
    let t = tempfile::tempdir().unwrap();
    let good = record(1, &[i64_slot("x", 0, 5, 1)]);
    write(&t.path().join("cut.ranges"), &good[..good.len() - 4]);
    write(&t.path().join("junk.ranges"), b"WEFT but not really");
    let mut v2 = good.clone();
    v2[8] = 2;
    write(&t.path().join("v2.ranges"), &v2);
    write(&t.path().join("bad.json"), b"{\"format\": 3}");
    std::fs::create_dir(t.path().join("empty")).unwrap();
    for (input, message) in [
        ("cut.ranges", "cut.ranges: "),
        ("junk.ranges", "junk.ranges: "),
        ("v2.ranges", "version 2"),
        ("bad.json", "bad.json: not a range set"),
        ("empty", "no range records"),
        ("missing.ranges", "missing.ranges: "),
    ] {
        let o = ranges(t.path(), &["show", input]);
        assert_eq!(o.status.code(), Some(2), "{input}");
        let err = stderr(&o);
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{input}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let cut = stderr(&ranges(t.path(), &["show", "cut.ranges"]));
    assert!(cut.contains("truncated"), "{cut}");
}

#[test]
fn loose_records_are_grouped_into_runs_by_process() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("train/a_c.41.ranges"),
        &record(41, &[i64_slot("x", 1, 1, 1)]),
    );
    write(
        &t.path().join("train/b_c.41.ranges"),
        &record(41, &[i64_slot("y", 2, 2, 1)]),
    );
    write(
        &t.path().join("train/a_c.42.ranges"),
        &record(42, &[i64_slot("x", 5, 5, 1)]),
    );
    let o = ranges(t.path(), &["learn", "--percent", "100", "train", "-o", "l.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let l = learned_json(t.path(), "l.json");
    assert_eq!(l["runs"], serde_json::json!(["train/pid-41", "train/pid-42"]));
    let x = &l["entries"][0];
    assert_eq!(
        (x["min"].as_i64(), x["max"].as_i64(), x["count"].as_u64()),
        (Some(1), Some(5), Some(2))
    );
    let half = ranges(t.path(), &["learn", "--percent", "50", "train", "-o", "h.json"]);
    assert!(half.status.success());
    assert_eq!(
        learned_json(t.path(), "h.json")["runs"].as_array().map(Vec::len),
        Some(1)
    );
}

#[test]
fn freq_report_counts_the_writes_of_all_runs() {
    let t = tempfile::tempdir().unwrap();
    // Two processes of one test run, and a parameter (not an assignment).
    write(
        &t.path().join("counts/1.ranges"),
        &record(1, &[i64_slot("x", 0, 3, 4)]),
    );
    let param = Slot {
        kind: "param",
        ..i64_slot("n", 1, 1, 9)
    };
    write(
        &t.path().join("counts/2.ranges"),
        &record(2, &[i64_slot("x", 1, 2, 2), i64_slot("y", 5, 5, 1), param]),
    );
    let o = ranges(t.path(), &["freq-report", "counts", "-o", "freq.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 variables, 7 assignments"),
        "{}",
        stderr(&o)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join("freq.json")).unwrap()).unwrap();
    assert_eq!(report, serde_json::json!({"total": 7, "f#x": 6, "f#y": 1}));
    let o = ranges(t.path(), &["freq-report", "missing", "-o", "freq.json"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_missing_path_is_named_with_its_cause_once() {
    let tmp = tempfile::tempdir().unwrap();
    let out = ranges(tmp.path(), &["show", "no-such-dir"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-dir: "), "{err}");
    assert_eq!(err.matches("no such file or directory").count(), 1, "{err}");
}

#[test]
fn every_ranges_argument_is_described_in_help() {
    for sub in ["show", "merge", "learn", "check", "diff", "freq-report"] {
        let help = stdout(&weft_support::weft(["ranges", sub, "--help"]));
        let args = help
            .split("Arguments:")
            .nth(1)
            .unwrap_or("")
            .split("Options:")
            .next()
            .unwrap_or("");
        let lines: Vec<&str> = args.lines().collect();
        for (i, line) in lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with('<'))
        {
            // The description follows on the same line, or (when long) on the next.
            let same_line = line
                .trim()
                .split_once('>')
                .is_some_and(|(_, rest)| !rest.trim().is_empty());
            let next_line = lines
                .get(i + 1)
                .is_some_and(|n| !n.trim().is_empty() && !n.trim().starts_with('<'));
            assert!(same_line || next_line, "`weft ranges {sub}`: {line}");
        }
    }
}
