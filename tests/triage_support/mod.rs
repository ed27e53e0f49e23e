//! The patch-triage examples (examples/patch-triage/NAME) as their tests
//! read them: the lists of patches and tests, and the meta program
//! `weft multiversion` makes of a tree and the patches.

use std::path::{Path, PathBuf};

/// examples/patch-triage/NAME.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/patch-triage")
        .join(name)
}

/// The lines of a list file, trimmed, blank lines and `#` comments left out.
pub fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The example's patches, in the order of its patches.txt: their paths.
pub fn patches(example: &Path) -> Vec<String> {
    lines(&example.join("patches.txt"))
        .iter()
        .map(|p| example.join(p).display().to_string())
        .collect()
}

/// Runs `weft multiversion -o meta tree PATCHES…` in `dir`, which must
/// succeed: the meta program of `dir/tree` is then in `dir/meta`.
pub fn multiversion(dir: &Path, patches: &[String]) {
    let out = crate::weft_support::command()
        .args(["multiversion", "-o", "meta", "tree"])
        .args(patches)
        .current_dir(dir)
        .output()
        .expect("weft runs");
    crate::weft_support::exited(&out, 0);
}
