//! A real hang (examples/dcraw-hang): dcraw 9.28 from Debian's source
//! package still has CVE-2018-5813, `parse_minolta()` seeking back by a
//! negative record length forever. aspects/nonterm.lara woven into the
//! unchanged dcraw.c and built as its author documents must report that
//! loop, by file, line and function, with the witness of its state, on the
//! example's crafted inputs; with LibRaw's fix applied (fix.patch) the same
//! inputs end with no report, and a benign input is rejected as before.
//! The woven dcraw decodes a raw image byte for byte as the plain build
//! does, under several options, with no report.
//! Slow (two weaves and three builds of a 10,000-line file, a minute or
//! two): run with `cargo test --test nonterm_dcraw -- --ignored --nocapture`.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use setup_support::{progress, sh};
use weft_support::weave;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Iterations an inexact loop must cycle before it is reported: low, so the
/// test is quick (the default, 100,000,000, takes seconds of CPU per run).
const PATIENCE: u64 = 100_000;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dcraw-hang")
}

/// Weaves the monitor into `dir/dcraw.c` and builds it with the command
/// dcraw's author gives (no libjpeg, jasper or lcms: -DNODEPS).
fn weave_and_build(dir: &Path) -> PathBuf {
    let woven = dir.join("woven");
    weave("nonterm.lara", &[], &woven, &dir.join("dcraw.c"));
    let (ok, log) = sh(&woven, "cc -o dcraw -O4 dcraw.c -lm -DNODEPS");
    assert!(ok, "the woven dcraw does not build:\n{log}");
    woven.join("dcraw")
}

/// Runs `dcraw ARGS INPUT` with reports under `out`, stopped after 60 s if
/// nothing stops it: (exit status as the shell gives it, stdout, stderr).
fn dcraw_run(dcraw: &Path, args: &[&str], input: &Path, out: &Path) -> (i32, Vec<u8>, String) {
    let run = Command::new("timeout")
        .arg("60")
        .arg(dcraw)
        .args(args)
        .arg(input)
        .env("WEFT_OUT", out)
        .env("WEFT_NONTERM_PATIENCE", PATIENCE.to_string())
        .output()
        .unwrap();
    let code = run.status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt as _;
        128 + run.status.signal().unwrap_or(0)
    });
    (
        code,
        run.stdout,
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

/// `dcraw -i` (identify): (exit status, stdout and stderr together).
fn identify(dcraw: &Path, input: &Path, out: &Path) -> (i32, String) {
    let (code, stdout, stderr) = dcraw_run(dcraw, &["-i"], input, out);
    (code, format!("{}{stderr}", String::from_utf8_lossy(&stdout)))
}

/// The reports under `out`, as `weft nonterm show --json` prints them (the
/// runtime creates `out` only to write a report).
fn reports(out: &Path) -> Vec<serde_json::Value> {
    if !out.exists() {
        return Vec::new();
    }
    let show = weft_support::command()
        .args(["nonterm", "show", "--json"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        matches!(show.status.code(), Some(0 | 1)),
        "weft nonterm show {}: {}",
        out.display(),
        String::from_utf8_lossy(&show.stderr)
    );
    String::from_utf8_lossy(&show.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The 1-based line of dcraw.c's `parse_minolta` record loop.
fn minolta_loop_line(source: &Path) -> u64 {
    let text = String::from_utf8_lossy(&std::fs::read(source).unwrap()).into_owned();
    let at = text
        .lines()
        .position(|l| l.contains("while ((save=ftell(ifp)) < offset)"))
        .expect("parse_minolta's loop is in dcraw.c");
    at as u64 + 1
}

#[test]
#[ignore = "slow: weaves dcraw twice and builds it three times (a minute or two)"]
fn dcraw_hang_cve_2018_5813_is_reported_and_the_fix_ends_it() {
    let dcraw = setup_support::dcraw_dir();
    let tmp = tempfile::tempdir().unwrap();
    let inputs = tmp.path().join("inputs");
    let (ok, log) = sh(
        tmp.path(),
        &format!(
            "python3 '{}' '{}'",
            example().join("make_inputs.py").display(),
            inputs.display()
        ),
    );
    assert!(ok, "{log}");
    let (buggy, fixed) = (tmp.path().join("buggy"), tmp.path().join("fixed"));
    for dir in [&buggy, &fixed] {
        std::fs::create_dir(dir).unwrap();
        std::fs::copy(dcraw.join("dcraw.c"), dir.join("dcraw.c")).unwrap();
    }
    let (ok, log) = sh(
        &fixed,
        &format!("patch -p1 --quiet < '{}'", example().join("fix.patch").display()),
    );
    assert!(ok, "fix.patch does not apply to dcraw 9.28:\n{log}");
    progress("building dcraw 9.28, then weaving aspects/nonterm.lara into it and building that");
    let (ok, log) = sh(&buggy, "cc -o dcraw -O4 dcraw.c -lm -DNODEPS");
    assert!(ok, "dcraw does not build:\n{log}");
    let plain_dcraw = buggy.join("dcraw");
    let buggy_dcraw = weave_and_build(&buggy);
    progress("the same with LibRaw's fix applied");
    let fixed_dcraw = weave_and_build(&fixed);
    let line = minolta_loop_line(&dcraw.join("dcraw.c"));

    for (input, period) in [("minolta-loop.mrw", 1), ("minolta-loop2.mrw", 2)] {
        let out = tmp.path().join(format!("out-{input}"));
        let (code, text) = identify(&buggy_dcraw, &inputs.join(input), &out);
        assert_eq!(
            code, 134,
            "{input}: the monitor aborts the hang (SIGABRT)\n{text}"
        );
        let found = reports(&out);
        assert_eq!(found.len(), 1, "{input}: {found:?}");
        let r = &found[0];
        assert_eq!(r["file"], "dcraw.c", "{r}");
        assert_eq!(r["line"], line, "{r}");
        assert_eq!(r["function"], "parse_minolta", "{r}");
        assert_eq!(r["period"], period, "{r}");
        assert_eq!(r["exact"], false, "the loop calls ftell, fgetc, fseek: {r}");
        let iteration = r["iteration"].as_u64().unwrap();
        assert!((PATIENCE..PATIENCE + 8).contains(&iteration), "{r}");
        // The witness: the record position the loop keeps coming back to.
        let save = r["witness"]["save"].as_str().unwrap();
        let records = if period == 1 { &["8"][..] } else { &["8", "16"][..] };
        assert!(records.contains(&save), "{r}");

        let out = tmp.path().join(format!("fixed-{input}"));
        let (code, text) = identify(&fixed_dcraw, &inputs.join(input), &out);
        assert_eq!(code, 1, "{input}: the fixed dcraw ends\n{text}");
        assert!(text.contains("Cannot decode file"), "{text}");
        assert!(reports(&out).is_empty(), "{input}: no report once fixed");
    }

    // A benign header: both builds end as dcraw does, with no report.
    for (name, program) in [("buggy", &buggy_dcraw), ("fixed", &fixed_dcraw)] {
        let out = tmp.path().join(format!("benign-{name}"));
        let input = inputs.join("benign.mrw");
        let (code, text) = identify(program, &input, &out);
        assert_eq!(
            (code, text.trim()),
            (1, format!("Cannot decode file {}", input.display()).as_str())
        );
        assert!(reports(&out).is_empty());
    }

    // Real work: a raw image decoded through dcraw's pipeline (each
    // interpolation, half size, TIFF output, auto white balance, another
    // colour space, highlight recovery), woven as plain.
    let image = inputs.join("nokia.raw");
    for (i, opts) in [
        &["-c"][..],
        &["-c", "-q", "0"],
        &["-c", "-q", "1"],
        &["-c", "-q", "2"],
        &["-c", "-q", "3"],
        &["-c", "-h"],
        &["-c", "-T", "-w"],
        &["-c", "-a", "-o", "2"],
        &["-c", "-H", "2", "-b", "1.5"],
    ]
    .into_iter()
    .enumerate()
    {
        let plain = dcraw_run(&plain_dcraw, opts, &image, &tmp.path().join("unused"));
        let out = tmp.path().join(format!("decode-{i}"));
        let woven = dcraw_run(&buggy_dcraw, opts, &image, &out);
        assert_eq!(plain.0, 0, "{opts:?}: {}", plain.2);
        assert!(plain.1.len() > 2000, "{opts:?}: an image is written");
        assert!(
            woven == plain,
            "{opts:?}: the woven dcraw decodes differently: {}",
            woven.2
        );
        assert!(reports(&out).is_empty(), "{opts:?}");
    }
}
