//! A fixture as the front-end tests read it: the front end learned from
//! the fixture's sources, and one of its files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use weft::c::{FrontEnd, Sources};

/// The front end learned from the sources under `dir` (their macros
/// included), with the path and text of the file there named `name`.
pub fn front_end_and_file(dir: &Path, name: &str) -> (FrontEnd, PathBuf, Arc<str>) {
    let sources = Sources::collect(&[dir.to_path_buf()], false).unwrap();
    let front_end = sources.front_end(None).unwrap();
    let (path, text) = sources
        .parsed
        .iter()
        .find(|(p, _)| p.ends_with(name))
        .unwrap_or_else(|| panic!("{name} is among {}'s sources", dir.display()));
    (front_end, path.clone(), text.clone())
}
