//! C sources on disk as the tests read them.

use std::path::{Path, PathBuf};

/// The `.c` files directly in `dir` (not in its subdirectories), sorted.
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    found.sort();
    found
}
