//! Selection over a real program: gzip 1.12, parsed without macro knowledge.

#[path = "setup_support/mod.rs"]
mod setup_support;

use weft::c::{ParsedFile, Sources};
use weft::joinpoint::{self, JoinPoint, Value};
use weft::sema::Semantics;

/// gzip's C files parsed without macro knowledge.
fn gzip_plain() -> Vec<ParsedFile> {
    let sources = Sources::collect(&[setup_support::gzip_dir()], false).expect("gzip sources are present");
    sources
        .parsed
        .iter()
        .map(|(path, text)| ParsedFile::parse_plain(path.clone(), text.clone()))
        .collect()
}

/// gzip's C files parsed by the macro-aware front end.
fn gzip_front_end() -> Vec<ParsedFile> {
    let sources = Sources::collect(&[setup_support::gzip_dir()], false).expect("gzip sources are present");
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
    let sema = Semantics::build(files, &[setup_support::gzip_dir()]);
    let sema = Some(&sema);
    let program = [JoinPoint::program()];
    let functions = select_all(files, &program, "function");
    assert!(functions.len() > 100, "{} functions", functions.len());
    for f in &functions {
        match joinpoint::attribute(files, sema, f, "name") {
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
        .filter(|v| joinpoint::attribute(files, sema, v, "reference") == Ok(Value::Str("write".into())))
        .count();
    assert!(writes > 200, "{writes} writes");
    let calls = select_all(files, &functions, "call");
    assert!(calls.len() > 300, "{} calls", calls.len());
    // Every attribute of every kind answers without panicking (a sample of
    // each kind keeps the debug build quick).
    for spec in joinpoint::kinds().iter().filter(|k| k.name != "program") {
        let jps = joinpoint::selection_path(spec.name)
            .unwrap()
            .iter()
            .fold(program.to_vec(), |from, step| select_all(files, &from, step));
        assert!(!jps.is_empty(), "no `{}` in gzip", spec.name);
        for jp in jps.iter().step_by(jps.len().div_ceil(200)) {
            // The `src` attributes are answered by the program's loop
            // analysis, with a solver (tests/nonterm_src.rs).
            for attr in spec
                .all_attributes()
                .filter(|a| !weft::program::is_recurrence_attribute(spec.name, a.name))
            {
                joinpoint::attribute(files, sema, jp, attr.name)
                    .unwrap_or_else(|e| panic!("{}.{}: {e}", spec.name, attr.name));
            }
        }
    }
}

/// gzip's C files parsed by the macro-aware front end (with `macro_file`)
/// and their semantics, headers read through the same front end.
fn gzip_with_semantics(macro_file: Option<&std::path::Path>) -> (Vec<ParsedFile>, Semantics) {
    let sources = Sources::collect(&[setup_support::gzip_dir()], false).expect("gzip sources are present");
    let front_end = sources.front_end(macro_file).expect("macro table");
    let files: Vec<ParsedFile> = sources
        .parsed
        .iter()
        .map(|(path, text)| front_end.parse(path, text.clone()))
        .collect();
    let parse = |path: &std::path::Path, text: std::sync::Arc<str>| front_end.parse(path, text);
    let sema = Semantics::build_with(&files, &[setup_support::gzip_dir()], &parse);
    (files, sema)
}

/// The var join points of gzip named `name`.
fn vars_named(files: &[ParsedFile], sema: &Semantics, name: &str) -> Vec<JoinPoint> {
    select_all(files, &[JoinPoint::program()], "var")
        .into_iter()
        .filter(|v| joinpoint::attribute(files, Some(sema), v, "name") == Ok(Value::Str(name.into())))
        .collect()
}

#[test]
fn header_typedefs_make_gzip_variables_primitive() {
    let (files, semantics) = gzip_with_semantics(None);
    let sema = Some(&semantics);
    let vars = select_all(&files, &[JoinPoint::program()], "var");
    let typed =
        |v: &JoinPoint, t: &str| joinpoint::attribute(&files, sema, v, "type") == Ok(Value::Str(t.into()));
    let flag = |v: &JoinPoint, a: &str| joinpoint::attribute(&files, sema, v, a) == Ok(Value::Bool(true));
    // `ush` and `ulg` are typedefs of gzip.h, never seen by the .c file alone.
    for name in ["ush", "ulg"] {
        let uses: Vec<&JoinPoint> = vars.iter().filter(|v| typed(v, name)).collect();
        assert!(uses.len() > 20, "{} uses of {name} variables", uses.len());
        assert!(
            uses.iter()
                .all(|v| flag(v, "is_primitive") && flag(v, "type_known"))
        );
    }
    // `outcnt` is declared `extern unsigned outcnt;` in gzip.h only.
    let outcnt = vars_named(&files, &semantics, "outcnt");
    assert!(!outcnt.is_empty());
    for v in &outcnt {
        assert!(flag(v, "is_primitive") && flag(v, "is_global"));
    }
    // `window` is declared through EXTERN/DECLARE: never a primitive.
    for v in vars_named(&files, &semantics, "window") {
        assert!(!flag(&v, "is_primitive"));
    }
}

#[test]
fn gzip_window_is_an_array_with_the_build_configuration() {
    let macros = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/joinpoint/gzip-static-alloc.h"
    );
    let (files, sema) = gzip_with_semantics(Some(macros.as_ref()));
    let windows = vars_named(&files, &sema, "window");
    assert!(windows.len() > 10, "{} uses of window", windows.len());
    for v in &windows {
        let attr = |a: &str| joinpoint::attribute(&files, Some(&sema), v, a).unwrap();
        assert_eq!(attr("is_array"), Value::Bool(true), "{:?}", attr("line"));
        assert_eq!(attr("is_primitive"), Value::Bool(false));
    }
}
