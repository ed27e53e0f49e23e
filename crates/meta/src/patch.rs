//! One revision of the tree: a unified diff (as `diff -u` and `git diff`
//! write them) applied with GNU patch to scratch copies of the files it
//! names. The user's tree is only read.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// A revision: the new text of each file its diff changes, keyed by path
/// relative to the tree.
#[derive(Debug, Clone)]
pub struct Revision {
    pub files: BTreeMap<PathBuf, String>,
}

/// The file paths a diff names on its `---` and `+++` lines (without the
/// timestamps that `diff -u` appends after a tab), in order, `/dev/null`
/// included.
fn named_paths(diff: &str) -> Vec<(usize, String)> {
    diff.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let rest = line.strip_prefix("--- ").or_else(|| line.strip_prefix("+++ "))?;
            let name = rest.split('\t').next().unwrap_or(rest).trim_end();
            Some((i + 1, name.trim_matches('"').to_string()))
        })
        .collect()
}

/// `path` with its first `strip` components removed, as `patch -pN` reads it.
fn stripped(path: &str, strip: usize) -> Option<PathBuf> {
    let parts: Vec<Component> = Path::new(path).components().collect();
    (parts.len() > strip).then(|| parts[strip..].iter().collect())
}

/// The files the diff changes, relative to `tree`, with the `-p` level
/// that makes them all exist: `strip` when given, otherwise the smallest
/// level in 0..=3 that works. A diff that creates or deletes a file is
/// refused (the meta program keeps the tree's file list).
fn targets(
    diff: &str,
    patch: &Path,
    tree: &Path,
    strip: Option<usize>,
) -> anyhow::Result<(usize, Vec<PathBuf>)> {
    let names = named_paths(diff);
    if names.is_empty() {
        bail!("{}: not a unified diff (no `---`/`+++` lines)", patch.display());
    }
    if let Some((line, _)) = names.iter().find(|(_, n)| n == "/dev/null") {
        bail!(
            "{}:{line}: the diff creates or deletes a file; a meta program can only change existing files",
            patch.display()
        );
    }
    let fits = |p: usize| {
        names
            .iter()
            .filter_map(|(_, n)| stripped(n, p))
            .filter(|rel| tree.join(rel).is_file())
            .count()
            >= names.len() / 2
    };
    let level = match strip {
        Some(p) => p,
        None => (0..=3).find(|&p| fits(p)).with_context(|| {
            format!(
                "{}: the files it names ({}) are not in {} at any -p level from 0 to 3; give --strip",
                patch.display(),
                names[0].1,
                tree.display()
            )
        })?,
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for (_, name) in &names {
        let Some(rel) = stripped(name, level).filter(|rel| tree.join(rel).is_file()) else {
            // `diff -u a b` names both sides; only one needs to exist.
            continue;
        };
        if !files.contains(&rel) {
            files.push(rel);
        }
    }
    if files.is_empty() {
        bail!(
            "{}: none of the files it names exists in {} with -p{level}",
            patch.display(),
            tree.display()
        );
    }
    Ok((level, files))
}

/// Applies `patch` to copies of the files it names and returns their new
/// text. A hunk that does not apply is an error quoting GNU patch (which
/// names the hunk and its line).
pub fn apply(patch: &Path, tree: &Path, strip: Option<usize>) -> anyhow::Result<Revision> {
    let diff =
        std::fs::read_to_string(patch).with_context(|| format!("cannot read patch {}", patch.display()))?;
    let (level, files) = targets(&diff, patch, tree, strip)?;
    let scratch = tempfile::tempdir().context("cannot create a scratch directory")?;
    for rel in &files {
        let dest = scratch.path().join(rel);
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::copy(tree.join(rel), &dest).with_context(|| format!("cannot copy {}", rel.display()))?;
    }
    let output = Command::new("patch")
        .arg(format!("-p{level}"))
        .args([
            "--batch",
            "--forward",
            "--no-backup-if-mismatch",
            "--reject-file=-",
            "-i",
        ])
        .arg(std::path::absolute(patch)?)
        .current_dir(scratch.path())
        .output()
        .context("cannot run GNU patch (install it: scripts/install-deps.sh)")?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stdout);
        let failed: Vec<&str> = said
            .lines()
            .filter(|l| l.contains("FAILED") || l.contains("Reversed") || l.contains("malformed"))
            .collect();
        bail!(
            "{} does not apply to {} (patch -p{level}):\n  {}",
            patch.display(),
            tree.display(),
            if failed.is_empty() {
                said.trim().to_string()
            } else {
                failed.join("\n  ")
            }
        );
    }
    let mut texts = BTreeMap::new();
    for rel in files {
        let text = std::fs::read_to_string(scratch.path().join(&rel))
            .with_context(|| format!("{}: the patched text is not UTF-8", rel.display()))?;
        texts.insert(rel, text);
    }
    Ok(Revision { files: texts })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("src")).unwrap();
        std::fs::write(t.path().join("src/a.c"), "int f(void)\n{\n  return 1;\n}\n").unwrap();
        t
    }

    fn diff(dir: &Path, text: &str) -> PathBuf {
        let p = dir.join("fix.diff");
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn applies_a_git_diff_with_the_strip_level_found() {
        let t = tree();
        let d = tempfile::tempdir().unwrap();
        let p = diff(
            d.path(),
            "diff --git a/src/a.c b/src/a.c\n--- a/src/a.c\n+++ b/src/a.c\n@@ -1,4 +1,4 @@\n int f(void)\n {\n-  return 1;\n+  return 2;\n }\n",
        );
        let rev = apply(&p, t.path(), None).unwrap();
        assert_eq!(
            rev.files[Path::new("src/a.c")],
            "int f(void)\n{\n  return 2;\n}\n"
        );
        // The tree itself is untouched.
        assert!(
            std::fs::read_to_string(t.path().join("src/a.c"))
                .unwrap()
                .contains("return 1")
        );
    }

    #[test]
    fn a_failing_hunk_is_named() {
        let t = tree();
        let d = tempfile::tempdir().unwrap();
        let p = diff(
            d.path(),
            "--- src/a.c\t2024-01-01\n+++ src/a.c\t2024-01-02\n@@ -1,4 +1,4 @@\n int f(void)\n {\n-  return 7;\n+  return 2;\n }\n",
        );
        let err = format!("{:#}", apply(&p, t.path(), None).unwrap_err());
        assert!(err.contains("Hunk #1 FAILED"), "{err}");
    }

    #[test]
    fn new_files_and_foreign_paths_are_refused() {
        let t = tree();
        let d = tempfile::tempdir().unwrap();
        let p = diff(
            d.path(),
            "--- /dev/null\n+++ b/src/new.c\n@@ -0,0 +1 @@\n+int x;\n",
        );
        let err = apply(&p, t.path(), None).unwrap_err().to_string();
        assert!(
            err.contains("fix.diff:1: the diff creates or deletes a file"),
            "{err}"
        );
        let p = diff(d.path(), "--- a/zzz.c\n+++ b/zzz.c\n@@ -1 +1 @@\n-a\n+b\n");
        let err = apply(&p, t.path(), None).unwrap_err().to_string();
        assert!(err.contains("not in"), "{err}");
        let p = diff(d.path(), "just words\n");
        assert!(
            apply(&p, t.path(), None)
                .unwrap_err()
                .to_string()
                .contains("not a unified diff")
        );
    }
}
