//! Directories weft replaces as a whole (a woven tree, a study's work
//! directory) are claimed first, before anything is read or written:
//! nothing of the user's may be lost to a mistyped `--output`.
//!
//! A directory can be claimed when it does not exist, is empty, or carries
//! weft's marker file (weft wrote it before); never when it is, or holds,
//! one of the run's inputs.

use std::path::{Path, PathBuf};

use anyhow::bail;

/// The marker weft leaves in every directory it owns.
pub const MARKER: &str = ".weft-output";

const MARKER_TEXT: &str = "This directory was written by weft. A later run writing here \
replaces it as a whole; weft refuses to replace a directory without this file.\n";

/// Checks that `dir` may be replaced: it is none of `inputs` and holds
/// none of them, and it is missing, empty, or marked as weft's. `what`
/// names the directory in messages (`output`, `work directory`).
pub fn check_claim(dir: &Path, inputs: &[PathBuf], what: &str) -> anyhow::Result<()> {
    let dir_abs = absolute(dir);
    for input in inputs {
        let input_abs = absolute(input);
        if input_abs.starts_with(&dir_abs) {
            bail!(
                "{what} `{}` holds input `{}`: writing it would replace the input; choose another directory",
                dir.display(),
                input.display()
            );
        }
    }
    let Ok(mut entries) = std::fs::read_dir(dir) else {
        if dir.exists() && !dir.is_dir() {
            bail!("{what} `{}` exists and is not a directory", dir.display());
        }
        return Ok(());
    };
    if entries.next().is_some() && !dir.join(MARKER).is_file() {
        bail!(
            "{what} `{}` exists and was not written by weft (it has no {MARKER}): weft replaces \
             its output as a whole, so give a new or empty directory",
            dir.display()
        );
    }
    Ok(())
}

/// Leaves the marker in `dir`, which weft has just written.
pub fn mark(dir: &Path) -> std::io::Result<()> {
    std::fs::write(dir.join(MARKER), MARKER_TEXT)
}

/// `path` made absolute and resolved as far as it exists, so that `..`,
/// `.` and symbolic links cannot hide that two paths are the same.
fn absolute(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) if parent != abs => absolute(parent).join(name),
        _ => abs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_inside_and_foreign_directories_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("d");
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("prog.c"), "int x;").unwrap();
        let err = check_claim(&d, &[d.join("prog.c")], "output")
            .unwrap_err()
            .to_string();
        assert!(err.contains("holds input"), "{err}");
        let err = check_claim(&d, &[], "output").unwrap_err().to_string();
        assert!(err.contains("was not written by weft"), "{err}");
        let dotted = tmp.path().join("d/../d");
        assert!(check_claim(&dotted, &[d.join("prog.c")], "output").is_err());
        mark(&d).unwrap();
        assert!(
            check_claim(&d, &[], "output").is_ok(),
            "a marked directory is weft's"
        );
        assert!(check_claim(&tmp.path().join("new"), &[d.join("prog.c")], "output").is_ok());
        let file = d.join("prog.c");
        assert!(
            check_claim(&file, &[], "output")
                .unwrap_err()
                .to_string()
                .contains("not a directory")
        );
    }
}
