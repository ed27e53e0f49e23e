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

/// `path` with its first `strip` components removed, as `patch -pN` reads
/// it, when what is left stays inside the tree: a path that is absolute or
/// goes up with `..` is `None`.
fn stripped(path: &str, strip: usize) -> Option<PathBuf> {
    let parts: Vec<Component> = Path::new(path)
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    let rest = parts.get(strip..).filter(|r| !r.is_empty())?;
    rest.iter()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| rest.iter().collect())
}

/// Whether `name` at `-p level` would leave the tree (an absolute path, or
/// `..` above it).
fn escapes(name: &str, level: usize) -> bool {
    let parts: Vec<Component> = Path::new(name)
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    parts
        .get(level..)
        .is_some_and(|rest| rest.iter().any(|c| !matches!(c, Component::Normal(_))))
}

/// The file `rel` names inside `tree`, relative to the tree, following
/// symbolic links; an error when it leads out of the tree.
fn resolved(tree: &Path, rel: &Path, patch: &Path, line: usize) -> anyhow::Result<PathBuf> {
    let root = tree
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", tree.display()))?;
    let real = tree
        .join(rel)
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", tree.join(rel).display()))?;
    match real.strip_prefix(&root) {
        Ok(inside) => Ok(inside.to_path_buf()),
        Err(_) => bail!(
            "{}:{line}: {} is a symbolic link leading out of {} (to {}); refused",
            patch.display(),
            rel.display(),
            tree.display(),
            real.display()
        ),
    }
}

/// A file a diff changes.
struct Target {
    /// The line of the diff that names it.
    line: usize,
    /// Its path as the diff names it (stripped), relative to the tree.
    named: PathBuf,
    /// The file itself, links followed, relative to the tree.
    real: PathBuf,
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
) -> anyhow::Result<(usize, Vec<Target>)> {
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
    if let Some((line, name)) = names.iter().find(|(_, n)| (0..=3).all(|p| escapes(n, p))) {
        bail!(
            "{}:{line}: `{name}` leaves the tree at every -p level; a diff may only name files inside {}",
            patch.display(),
            tree.display()
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
    if let Some((line, name)) = names.iter().find(|(_, n)| escapes(n, level)) {
        bail!(
            "{}:{line}: `{name}` (with -p{level}) leaves the tree; a diff may only name files inside {}",
            patch.display(),
            tree.display()
        );
    }
    let mut files: Vec<Target> = Vec::new();
    for (line, name) in &names {
        let Some(named) = stripped(name, level).filter(|rel| tree.join(rel).is_file()) else {
            // `diff -u a b` names both sides; only one needs to exist.
            continue;
        };
        let real = resolved(tree, &named, patch, *line)?;
        if files.iter().all(|t| t.real != real) {
            files.push(Target {
                line: *line,
                named,
                real,
            });
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
/// names the hunk and its line). Every path is checked before anything is
/// written, and GNU patch is given each file's part of the diff with the
/// scratch copy to change, so the names in the diff never choose what is
/// written.
pub fn apply(patch: &Path, tree: &Path, strip: Option<usize>) -> anyhow::Result<Revision> {
    let diff =
        std::fs::read_to_string(patch).with_context(|| format!("cannot read patch {}", patch.display()))?;
    let (level, files) = targets(&diff, patch, tree, strip)?;
    let scratch = tempfile::tempdir().context("cannot create a scratch directory")?;
    for target in &files {
        let dest = scratch.path().join(&target.real);
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = std::fs::read(tree.join(&target.real))
            .with_context(|| format!("cannot read {}", target.real.display()))?;
        std::fs::write(&dest, text)?;
    }
    for (first_line, section) in sections(&diff) {
        let Some(target) = named_paths(section)
            .iter()
            .filter_map(|(_, n)| stripped(n, level))
            .find_map(|rel| files.iter().find(|t| t.named == rel))
        else {
            continue;
        };
        run_patch(section, &scratch.path().join(&target.real)).map_err(|said| {
            anyhow::anyhow!(
                "{}:{} does not apply to {} (patch -p{level}, {}):\n  {said}",
                patch.display(),
                first_line.max(target.line),
                tree.display(),
                target.named.display()
            )
        })?;
    }
    let mut texts = BTreeMap::new();
    for target in files {
        let text = std::fs::read_to_string(scratch.path().join(&target.real))
            .with_context(|| format!("{}: the patched text is not UTF-8", target.real.display()))?;
        texts.insert(target.real, text);
    }
    Ok(Revision { files: texts })
}

/// The parts of a diff that change one file each: from a `---` line
/// followed by `+++` and `@@` to the next such line; with the 1-based line
/// where each starts.
fn sections(diff: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = diff.split_inclusive('\n').collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            lines[i].starts_with("--- ")
                && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ "))
                && lines.get(i + 2).is_some_and(|l| l.starts_with("@@"))
        })
        .collect();
    let offset = |i: usize| lines[..i].iter().map(|l| l.len()).sum::<usize>();
    starts
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let end = starts.get(k + 1).map_or(diff.len(), |&j| offset(j));
            (i + 1, &diff[offset(i)..end])
        })
        .collect()
}

/// Runs GNU patch on one file with one section of a diff; `Err` holds what
/// it said about the hunks that failed.
fn run_patch(section: &str, file: &Path) -> Result<(), String> {
    use std::io::Write;
    let mut child = Command::new("patch")
        .args([
            "--batch",
            "--forward",
            "--no-backup-if-mismatch",
            "--reject-file=-",
        ])
        .arg(file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run GNU patch (install it: scripts/install-deps.sh): {e}"))?;
    if let Some(mut input) = child.stdin.take() {
        // A refusal to read it all shows in patch's status and words.
        let _ = input.write_all(section.as_bytes());
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    if output.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&output.stdout);
    let failed: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("FAILED") || l.contains("Reversed") || l.contains("malformed"))
        .collect();
    Err(if failed.is_empty() {
        format!(
            "{}{}",
            said.trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        )
    } else {
        failed.join("\n  ")
    })
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

    /// A victim file beside the tree (`../victim.c` from it) and one
    /// elsewhere, each with a known text.
    struct Victims {
        _dir: tempfile::TempDir,
        tree: PathBuf,
        beside: PathBuf,
        elsewhere: tempfile::TempDir,
    }

    const VICTIM: &str = "int f(void)\n{\n  return 1;\n}\n";

    fn victims() -> Victims {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        std::fs::create_dir_all(tree.join("sub")).unwrap();
        std::fs::write(tree.join("a.c"), VICTIM).unwrap();
        std::fs::write(tree.join("sub/b.c"), VICTIM).unwrap();
        let beside = dir.path().join("victim.c");
        std::fs::write(&beside, VICTIM).unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(elsewhere.path().join("victim.c"), VICTIM).unwrap();
        Victims {
            _dir: dir,
            tree,
            beside,
            elsewhere,
        }
    }

    fn hunk_for(old: &str, new: &str) -> String {
        format!("--- {old}\n+++ {new}\n@@ -1,4 +1,4 @@\n int f(void)\n {{\n-  return 1;\n+  return 2;\n }}\n")
    }

    #[test]
    fn paths_leaving_the_tree_are_refused_and_nothing_outside_is_written() {
        let v = victims();
        let outside = v.elsewhere.path().join("victim.c");
        let d = tempfile::tempdir().unwrap();
        let cases = [
            hunk_for(&outside.display().to_string(), &outside.display().to_string()),
            hunk_for("a/../victim.c", "b/../victim.c"),
            hunk_for("a/sub/../../victim.c", "b/sub/../../victim.c"),
            // A legitimate file first does not let a later name escape.
            hunk_for("a/a.c", "b/a.c") + &hunk_for("a/../victim.c", "b/../victim.c"),
        ];
        for (i, text) in cases.iter().enumerate() {
            let p = diff(d.path(), text);
            for strip in [None, Some(0), Some(1)] {
                let err = apply(&p, &v.tree, strip).map(|_| ()).unwrap_err();
                let said = format!("{err:#}");
                assert!(
                    said.contains("leaves the tree") || said.contains("not in") || said.contains("none of"),
                    "case {i}, strip {strip:?}: {said}"
                );
                assert_eq!(std::fs::read_to_string(&outside).unwrap(), VICTIM, "case {i}");
                assert_eq!(std::fs::read_to_string(&v.beside).unwrap(), VICTIM, "case {i}");
                assert_eq!(std::fs::read_to_string(v.tree.join("a.c")).unwrap(), VICTIM);
            }
        }
    }

    #[test]
    fn a_symlink_leading_out_is_refused_and_one_inside_is_followed() {
        let v = victims();
        let outside = v.elsewhere.path().join("victim.c");
        std::os::unix::fs::symlink(&outside, v.tree.join("link.c")).unwrap();
        std::os::unix::fs::symlink(v.elsewhere.path(), v.tree.join("linkdir")).unwrap();
        let d = tempfile::tempdir().unwrap();
        for (old, new) in [
            ("a/link.c", "b/link.c"),
            ("a/linkdir/victim.c", "b/linkdir/victim.c"),
        ] {
            let p = diff(d.path(), &hunk_for(old, new));
            let err = format!("{:#}", apply(&p, &v.tree, None).unwrap_err());
            assert!(err.contains("symbolic link leading out"), "{err}");
            assert_eq!(std::fs::read_to_string(&outside).unwrap(), VICTIM);
        }
        // A link to a file of the tree changes that file.
        std::os::unix::fs::symlink("sub/b.c", v.tree.join("inner.c")).unwrap();
        let p = diff(d.path(), &hunk_for("a/inner.c", "b/inner.c"));
        let rev = apply(&p, &v.tree, None).unwrap();
        assert!(rev.files[Path::new("sub/b.c")].contains("return 2"));
        assert_eq!(std::fs::read_to_string(v.tree.join("sub/b.c")).unwrap(), VICTIM);
    }
}
