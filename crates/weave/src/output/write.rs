//! Writes the mirrored tree atomically: everything is built in a temporary
//! directory beside the output and renamed into place only when complete.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use filetime::FileTime;

use super::{Entry, EntryKind};

/// Writes `entries` into `out`, replacing a previous `out` as a whole.
/// Files with a text in `woven` (keyed by [`Entry::source`]) are written with
/// that text, their source's mode and a fresh modification time; every other
/// entry is copied with its bytes, mode and modification time; the tree
/// also gets weft's marker ([`super::MARKER`]). On error `out` is left as
/// it was. Callers check first that `out` may be replaced
/// ([`super::check_claim`]).
pub fn write_tree<T: AsRef<str>>(
    entries: &[Entry],
    woven: &HashMap<PathBuf, T>,
    out: &Path,
) -> anyhow::Result<()> {
    if fs::symlink_metadata(out).is_ok_and(|m| !m.is_dir()) {
        bail!("output `{}` exists and is not a directory", out.display());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::create_dir_all(parent).with_context(|| format!("cannot create `{}`", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".weft-staging-")
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a temporary directory in `{}`", parent.display()))?;
    let root = staging.path().join("tree");
    fs::create_dir(&root)?;
    build(entries, woven, &root)?;
    super::mark(&root).context("cannot write the output's marker")?;
    replace(out, &root, parent)
    // `staging` is removed when dropped, on success and on error alike.
}

fn build<T: AsRef<str>>(entries: &[Entry], woven: &HashMap<PathBuf, T>, root: &Path) -> anyhow::Result<()> {
    for entry in entries {
        let dest = root.join(&entry.dest);
        let ctx = || format!("cannot write `{}`", entry.dest.display());
        match entry.kind {
            EntryKind::Dir => fs::create_dir_all(&dest).with_context(ctx)?,
            EntryKind::Symlink => {
                let target = fs::read_link(&entry.source).with_context(ctx)?;
                symlink(&target, &dest).with_context(ctx)?;
                let meta = fs::symlink_metadata(&entry.source).with_context(ctx)?;
                let mtime = FileTime::from_last_modification_time(&meta);
                filetime::set_symlink_file_times(&dest, mtime, mtime).with_context(ctx)?;
            }
            EntryKind::File { .. } => match woven.get(&entry.source) {
                Some(text) => {
                    fs::write(&dest, text.as_ref()).with_context(ctx)?;
                    let perms = fs::metadata(&entry.source).with_context(ctx)?.permissions();
                    fs::set_permissions(&dest, perms).with_context(ctx)?;
                }
                None => {
                    fs::copy(&entry.source, &dest).with_context(ctx)?;
                    keep_times(&entry.source, &dest).with_context(ctx)?;
                }
            },
        }
    }
    // Directory modes and times last, deepest first: writing their contents
    // changed the times, and a read-only mode would have refused the writes.
    for entry in entries.iter().rev().filter(|e| e.kind == EntryKind::Dir) {
        let dest = root.join(&entry.dest);
        let ctx = || format!("cannot set the times of `{}`", entry.dest.display());
        let meta = fs::metadata(&entry.source).with_context(ctx)?;
        keep_times(&entry.source, &dest).with_context(ctx)?;
        fs::set_permissions(&dest, meta.permissions()).with_context(ctx)?;
    }
    Ok(())
}

fn keep_times(source: &Path, dest: &Path) -> std::io::Result<()> {
    let meta = fs::metadata(source)?;
    filetime::set_file_times(
        dest,
        FileTime::from_last_access_time(&meta),
        FileTime::from_last_modification_time(&meta),
    )
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn symlink(target: &Path, _link: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other(format!(
        "cannot copy the symbolic link to `{}` on this platform",
        target.display()
    )))
}

/// Renames the finished `tree` to `out`. An existing `out` is first moved
/// aside (and put back if the second rename fails), then removed.
fn replace(out: &Path, tree: &Path, parent: &Path) -> anyhow::Result<()> {
    let rename_in = || {
        fs::rename(tree, out).with_context(|| format!("cannot move the woven tree to `{}`", out.display()))
    };
    if fs::symlink_metadata(out).is_err() {
        return rename_in();
    }
    let old = tempfile::Builder::new().prefix(".weft-old-").tempdir_in(parent)?;
    let aside = old.path().join("tree");
    fs::rename(out, &aside).with_context(|| format!("cannot replace `{}`", out.display()))?;
    if let Err(err) = rename_in() {
        fs::rename(&aside, out)
            .with_context(|| format!("`{}` was moved to `{}`", out.display(), aside.display()))?;
        return Err(err);
    }
    Ok(())
    // `old` (holding the previous output) is removed when dropped.
}
