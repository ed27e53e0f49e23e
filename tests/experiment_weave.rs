//! Weave steps and report stages on the tiny study, with a stand-in weaver
//! (the study's `weaver` key): a script taking `weft weave`'s command line
//! that mirrors the input tree, applies the HAND instrumentation and keeps
//! its arguments in the woven tree for inspection.

use std::path::{Path, PathBuf};
use std::process::Command;

use weft::experiment::{Study, run_local};
use weft::ranges::RangeSet;

mod weft_support;

const WEAVER: &str = r#"#!/bin/sh
# weave --aspect FILE [--arg NAME=VALUE]... --output DIR PATH
[ "$1" = weave ] || exit 2
all="$*"
shift
while [ $# -gt 0 ]; do
    case $1 in
        --aspect|--arg) shift 2 ;;
        --output) out=$2; shift 2 ;;
        *) path=$1; shift ;;
    esac
done
mkdir -p "$out" && cp -a "$path" "$out/" || exit 1
cd "$out/$path" && patch -p1 --quiet < "$(dirname "$0")/monitor.patch" || exit 1
printf '%s\n' "$all" > weave-args.txt
"#;

const STRATEGIES: &str = r#"
[[report]]
name = "freq"
aspect = "freq_report.lara"

[[report]]
name = "args"
aspect = "fanin_report.lara"
args = { depth = 2 }
make = 'cp "$WEFT_TREE/weave-args.txt" "$WEFT_REPORT"'

[[strategy]]
name = "WOVEN"
kind = "weave"
aspect = "comband.lara"
args = { threshold = 1.5, mode = "and" }
reports = { freqReport = "freq", faninReport = "args" }
"#;

fn fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/experiment/tiny");
    assert!(
        Command::new("cp")
            .arg("-a")
            .arg(src.join("."))
            .arg(dir.path())
            .status()
            .unwrap()
            .success()
    );
    let weaver = dir.path().join("weaver.sh");
    std::fs::write(&weaver, WEAVER).unwrap();
    assert!(
        Command::new("chmod")
            .arg("+x")
            .arg(&weaver)
            .status()
            .unwrap()
            .success()
    );
    for aspect in ["freq_report.lara", "fanin_report.lara", "comband.lara"] {
        std::fs::write(dir.path().join(aspect), "// stand-in\n").unwrap();
    }
    let file = dir.path().join("study.toml");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("[study]\n", "[study]\nweaver = \"weaver.sh\"\n", 1)
        .replacen("[[test]]", &format!("{STRATEGIES}\n[[test]]"), 1);
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

#[test]
fn woven_strategy_gets_its_args_and_every_report() {
    let (dir, file) = fixture();
    let study = Study::load(&file).unwrap();
    let (results, stats) = run_local(&study, 2, weft_support::binary()).unwrap();
    let work = dir.path().join("work");

    // The built-in report: the union of the training runs' ranges.
    let freq = std::fs::read_to_string(work.join("reports/freq/report.json")).unwrap();
    let freq = RangeSet::from_json(&freq).unwrap();
    let acc: Vec<_> = freq.ranges.iter().filter(|(k, _)| k.variable == "acc").collect();
    assert_eq!(acc.len(), 1);
    assert_eq!(
        acc[0]
            .1
            .bounds
            .map(|b| (b.min().to_string(), b.max().to_string())),
        Some(("1".into(), "55".into()))
    );

    // The `make` report saw its own weave's arguments.
    let made = std::fs::read_to_string(work.join("reports/args/report.json")).unwrap();
    assert!(
        made.contains("--aspect") && made.contains("fanin_report.lara"),
        "{made}"
    );
    assert!(made.contains("--arg depth=2 --output woven tree"), "{made}");

    // The strategy's weave got its arguments and both report paths.
    let args = std::fs::read_to_string(work.join("builds/WOVEN/v1/woven/tree/weave-args.txt")).unwrap();
    for part in [
        "--arg mode=and",
        "--arg threshold=1.5",
        &format!(
            "--arg freqReport={}",
            work.join("reports/freq/report.json").display()
        ),
        &format!(
            "--arg faninReport={}",
            work.join("reports/args/report.json").display()
        ),
    ] {
        assert!(args.contains(part), "{part} not in {args}");
    }

    // Same instrumentation as HAND, same predictions.
    assert_eq!(results.evaluations[1].points, results.evaluations[0].points);
    assert_eq!((stats.reports_made, stats.built), (2, 2 + 3 * 3));

    // Nothing changed: everything is reused, reports included.
    let (_, stats) = run_local(&study, 2, weft_support::binary()).unwrap();
    assert_eq!((stats.reports_made, stats.reports_reused, stats.built), (0, 2, 0));
}

#[test]
fn reports_must_exist_and_suit_the_strategy() {
    let (_dir, file) = fixture();
    let text = std::fs::read_to_string(&file).unwrap();
    let cases = [
        (
            text.replace("faninReport = \"args\"", "faninReport = \"nope\""),
            "strategy[1].reports.faninReport",
        ),
        (
            text.replace(
                "args = { threshold = 1.5, mode = \"and\" }",
                "args = { freqReport = 1 }",
            ),
            "strategy[1].reports.freqReport",
        ),
        (
            text.replace("kind = \"patch\"", "kind = \"patch\"\nreports = { x = \"freq\" }"),
            "strategy[0].reports",
        ),
        (
            text.replace("name = \"args\"", "name = \"freq\""),
            "report[1].name",
        ),
    ];
    for (bad, key) in cases {
        let err = format!("{:#}", Study::parse(&bad, &file).unwrap_err());
        assert!(err.contains(key), "{key}: {err}");
    }
}
