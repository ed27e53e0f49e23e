//! gzip 1.12's own .c files: every function definition is understood,
//! whether they are parsed alone or with the whole tree (gnulib's headers
//! add hundreds of macro definitions). CI fetches gzip first
//! (scripts/fetch-gzip.sh); a missing tree fails.

#[path = "setup_support/mod.rs"]
mod setup_support;
mod sources_support;

use std::path::PathBuf;
use std::sync::Arc;

use weft::c::{FileHealth, FrontEnd, Health, Sources};

/// The parse health of `files` as `front` parses them.
fn health_of<'a>(front: &FrontEnd, files: impl Iterator<Item = &'a (PathBuf, Arc<str>)>) -> Health {
    let parsed: Vec<_> = files.map(|(p, t)| front.parse(p, t.clone())).collect();
    Health::new(
        parsed.iter().map(|pf| (FileHealth::of(pf), pf)).collect(),
        front.macros().len(),
    )
}

use setup_support::gzip_dir;

#[test]
fn every_gzip_function_is_understood() {
    let dir = gzip_dir();
    let files = sources_support::c_files(&dir);
    let sources = Sources::collect(&files, false).unwrap();
    let front = sources.front_end(None).unwrap();
    let health = health_of(&front, sources.parsed.iter());
    assert!(health.files >= 12);
    assert!(health.functions > 100, "{}", health.functions);
    assert_eq!(health.functions, health.functions_ok, "{:#?}", health.culprits);
}

#[test]
fn gzip_functions_stay_understood_with_gnulib_macros_learned() {
    let dir = gzip_dir();
    let sources = Sources::collect(std::slice::from_ref(&dir), false).unwrap();
    let front = sources.front_end(None).unwrap();
    assert!(front.macros().len() > 1000, "gnulib's macros are learned");
    let own = sources
        .parsed
        .iter()
        .filter(|(p, _)| p.parent() == Some(dir.as_path()));
    let health = health_of(&front, own);
    assert!(health.files >= 12);
    assert_eq!(health.functions, health.functions_ok, "{:#?}", health.culprits);
}

/// gnulib's vasnprintf.c is a file tree-sitter-c cannot read as a whole
/// translation unit (the root of its raw parse is an ERROR node, because of
/// `#if` groups that split statements), yet its errors are local: the
/// front end repairs around each of them and understands the functions.
#[test]
fn a_file_whose_raw_parse_fails_as_a_whole_is_repaired_locally() {
    let dir = gzip_dir();
    let file = dir.join("lib/vasnprintf.c");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(weft::c::parse_view(&text).root_node().is_error());
    let sources = Sources::collect(std::slice::from_ref(&dir), false).unwrap();
    let front = sources.front_end(None).unwrap();
    let health = health_of(&front, sources.parsed.iter().filter(|(p, _)| *p == file));
    assert!(health.functions >= 20, "{}", health.functions);
    assert!(
        health.functions - health.functions_ok <= 1,
        "{}/{} understood: {:#?}",
        health.functions_ok,
        health.functions,
        health.culprits
    );
}
