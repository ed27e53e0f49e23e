//! aspects/outputs.lara woven into all of gzip 1.12 (gnulib too: every
//! woven file gets the runtime) capturing three of its functions: gzip
//! must build with its unchanged `./configure && make`, pass its own `make
//! check` while recording, and record the same values twice for the same
//! input. Slow (configure, build, test suite): run with
//! `cargo test --test outputs_gzip -- --ignored --nocapture`.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod weft_support;

use setup_support::sh;

use weft::monitor::outputs::{OutputRecord, read_dir};

/// Every value recorded under `name`, over all records.
fn values<'a>(records: &'a [OutputRecord], name: &str) -> Vec<&'a str> {
    records
        .iter()
        .flat_map(|r| &r.values)
        .filter(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .collect()
}

#[test]
#[ignore = "slow: configures, builds and tests gzip"]
fn gzip_woven_with_the_outputs_aspect_passes_its_own_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let woven = tmp.path().join("woven");
    setup_support::progress("weaving aspects/outputs.lara into gzip");
    let log = weft_support::weave(
        "outputs.lara",
        &["--arg", "functions=file_read,updcrc,get_method"],
        &woven,
        &setup_support::gzip_dir(),
    );
    println!("{log}");
    assert!(log.contains("not captured: file_read.*buf: char *"), "{log}");
    assert!(log.contains(" in 3 functions;"), "{log}");
    let gzip = woven.join("gzip-1.12");
    setup_support::progress("./configure && make of the woven gzip (about a minute)");
    let (ok, log) = sh(&gzip, "./configure --quiet >/dev/null && make -j2 >/dev/null");
    assert!(ok, "the woven gzip does not build:\n{log}");
    setup_support::progress("make check of the woven gzip, recording");
    let out = tmp.path().join("check-out");
    let (ok, log) = sh(&gzip, &format!("WEFT_OUT='{}' make -j2 check", out.display()));
    let summary: Vec<&str> = log.lines().filter(|l| l.starts_with("# ")).collect();
    println!("{}", summary.join("\n"));
    assert!(ok, "gzip's make check fails when woven:\n{log}");
    let records = read_dir(&out).unwrap_or_else(|e| panic!("{e}"));
    println!("make check: {} records", records.len());
    for unit in ["gzip.c", "util.c", "zip.c"] {
        assert!(records.iter().any(|r| r.unit == unit), "no record of {unit}");
    }
    let crcs = values(&records, "updcrc.return");
    assert!(
        crcs.iter()
            .all(|v| v.parse::<u64>().is_ok_and(|c| c <= u32::MAX.into())),
        "{crcs:?}"
    );
    let methods = values(&records, "get_method.return");
    assert!(methods.contains(&"8"), "deflate is method 8: {methods:?}");
    assert!(!values(&records, "file_read.return").is_empty());

    setup_support::progress("compressing gzip.doc twice");
    let mut runs = Vec::new();
    for run in ["one", "two"] {
        let dir = tmp.path().join(run);
        let script = format!("WEFT_OUT='{}' ./gzip -c gzip.doc > /dev/null", dir.display());
        let (ok, log) = sh(&gzip, &script);
        assert!(ok, "{log}");
        let records = read_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
        let by_unit: Vec<_> = records.into_iter().map(|r| (r.unit, r.values)).collect();
        runs.push(by_unit);
    }
    assert_eq!(runs[0], runs[1], "the same input records the same values");
    assert!(!values(&read_dir(&tmp.path().join("one")).unwrap(), "updcrc.return").is_empty());
}
