//! Selection over a real program: gzip 1.12, parsed without macro knowledge.

use weft::c::ParsedFile;
use weft::joinpoint::{self, JoinPoint, Value};

fn gzip() -> Vec<ParsedFile> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/third_party/gzip-1.12");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("gzip sources are present (see the fetch script)")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable source");
            ParsedFile::parse_plain(p, text)
        })
        .collect()
}

fn select_all(files: &[ParsedFile], from: &[JoinPoint], kind: &str) -> Vec<JoinPoint> {
    from.iter()
        .flat_map(|jp| joinpoint::select(files, jp, kind).expect("valid select"))
        .collect()
}

#[test]
fn every_kind_and_attribute_over_gzip() {
    let files = gzip();
    assert!(files.len() >= 10);
    let program = [JoinPoint::program()];
    let functions = select_all(&files, &program, "function");
    assert!(functions.len() > 100, "{} functions", functions.len());
    for f in &functions {
        match joinpoint::attribute(&files, f, "name") {
            Ok(Value::Str(name)) => assert!(!name.is_empty()),
            other => panic!("function without a name: {other:?}"),
        }
    }
    let loops = select_all(&files, &functions, "loop");
    // Raw parsing leaves many functions not understood (K&R headers behind
    // macros), so only part of gzip's 180 loops are reachable.
    assert!(loops.len() > 50, "{} loops", loops.len());
    let vars = select_all(&files, &functions, "var");
    assert!(vars.len() > 1500, "{} vars", vars.len());
    let writes = vars
        .iter()
        .filter(|v| joinpoint::attribute(&files, v, "reference") == Ok(Value::Str("write".into())))
        .count();
    assert!(writes > 200, "{writes} writes");
    let calls = select_all(&files, &functions, "call");
    assert!(calls.len() > 300, "{} calls", calls.len());
    // Every attribute of every kind answers without panicking (a sample of
    // each kind keeps the debug build quick).
    for spec in joinpoint::kinds().iter().filter(|k| k.name != "program") {
        let jps = select_all(&files, &program, spec.name);
        assert!(!jps.is_empty(), "no `{}` in gzip", spec.name);
        for jp in jps.iter().step_by(jps.len().div_ceil(200)) {
            for attr in spec.all_attributes() {
                joinpoint::attribute(&files, jp, attr.name)
                    .unwrap_or_else(|e| panic!("{}.{}: {e}", spec.name, attr.name));
            }
        }
    }
}
