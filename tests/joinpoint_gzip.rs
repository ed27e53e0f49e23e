//! Selection over a real program: gzip 1.12, parsed without macro knowledge.

use weft::c::{ParsedFile, Sources};
use weft::joinpoint::{self, JoinPoint, Value};

const GZIP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/third_party/gzip-1.12");

/// gzip's C files parsed without macro knowledge.
fn gzip_plain() -> Vec<ParsedFile> {
    let sources = Sources::collect(&[GZIP.into()], false).expect("gzip sources are present");
    sources
        .parsed
        .iter()
        .map(|(path, text)| ParsedFile::parse_plain(path.clone(), text.clone()))
        .collect()
}

/// gzip's C files parsed by the macro-aware front end.
fn gzip_front_end() -> Vec<ParsedFile> {
    let sources = Sources::collect(&[GZIP.into()], false).expect("gzip sources are present");
    let front_end = sources.front_end(None).expect("macro table");
    sources
        .parsed
        .iter()
        .map(|(path, text)| front_end.parse(path, text.clone()))
        .collect()
}

fn select_all(files: &[ParsedFile], from: &[JoinPoint], kind: &str) -> Vec<JoinPoint> {
    from.iter()
        .flat_map(|jp| joinpoint::select(files, jp, kind).expect("valid select"))
        .collect()
}

#[test]
fn plain_parse_of_gzip() {
    check(&gzip_plain(), 50);
}

#[test]
fn front_end_parse_of_gzip() {
    check(&gzip_front_end(), 150);
}

/// Plausible counts of every kind over gzip, every attribute answering.
fn check(files: &[ParsedFile], min_loops: usize) {
    assert!(files.len() >= 10);
    let program = [JoinPoint::program()];
    let functions = select_all(files, &program, "function");
    assert!(functions.len() > 100, "{} functions", functions.len());
    for f in &functions {
        match joinpoint::attribute(files, f, "name") {
            Ok(Value::Str(name)) => assert!(!name.is_empty()),
            other => panic!("function without a name: {other:?}"),
        }
    }
    let loops = select_all(files, &functions, "loop");
    // Raw parsing leaves many functions not understood (K&R headers behind
    // macros), so only part of gzip's 180 loops are reachable.
    assert!(loops.len() > min_loops, "{} loops", loops.len());
    let vars = select_all(files, &functions, "var");
    assert!(vars.len() > 1500, "{} vars", vars.len());
    let writes = vars
        .iter()
        .filter(|v| joinpoint::attribute(files, v, "reference") == Ok(Value::Str("write".into())))
        .count();
    assert!(writes > 200, "{writes} writes");
    let calls = select_all(files, &functions, "call");
    assert!(calls.len() > 300, "{} calls", calls.len());
    // Every attribute of every kind answers without panicking (a sample of
    // each kind keeps the debug build quick).
    for spec in joinpoint::kinds().iter().filter(|k| k.name != "program") {
        let jps = select_all(files, &program, spec.name);
        assert!(!jps.is_empty(), "no `{}` in gzip", spec.name);
        for jp in jps.iter().step_by(jps.len().div_ceil(200)) {
            for attr in spec.all_attributes() {
                joinpoint::attribute(files, jp, attr.name)
                    .unwrap_or_else(|e| panic!("{}.{}: {e}", spec.name, attr.name));
            }
        }
    }
}
