//! File copies and logged commands shared by the steps: done in-process
//! where a step repeats them per run (a `cp` per input file would cost a
//! process spawn each), and keeping timestamps so that copied autotools
//! trees do not look out of date to `make`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use filetime::FileTime;

/// Empties `dir` (creating it if needed).
pub fn recreate(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Copies a file, or a directory's content, to `dst` with modes, symbolic
/// links and modification times kept.
pub fn copy_into(src: &Path, dst: &Path) -> anyhow::Result<()> {
    let fail = || format!("cannot copy {} to {}", src.display(), dst.display());
    if let Some(parent) = dst.parent() {
        std::fs::create_dir_all(parent).with_context(fail)?;
    }
    let mut dirs = Vec::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry.with_context(fail)?;
        let rel = entry.path().strip_prefix(src).unwrap_or(Path::new(""));
        let to = if rel.as_os_str().is_empty() {
            dst.to_path_buf()
        } else {
            dst.join(rel)
        };
        let ft = entry.file_type();
        if ft.is_symlink() {
            let target = std::fs::read_link(entry.path()).with_context(fail)?;
            std::os::unix::fs::symlink(target, &to).with_context(fail)?;
        } else if ft.is_dir() {
            std::fs::create_dir_all(&to).with_context(fail)?;
            dirs.push((entry.path().to_path_buf(), to));
        } else {
            std::fs::copy(entry.path(), &to).with_context(fail)?;
            keep_mtime(entry.path(), &to).with_context(fail)?;
        }
    }
    // Directories last, deepest first: filling them changed their times.
    for (from, to) in dirs.iter().rev() {
        keep_mtime(from, to).with_context(fail)?;
    }
    Ok(())
}

fn keep_mtime(from: &Path, to: &Path) -> std::io::Result<()> {
    let meta = std::fs::metadata(from)?;
    let mtime = FileTime::from_last_modification_time(&meta);
    filetime::set_file_times(to, mtime, mtime)
}

/// Runs a build-side shell command in `cwd`, appending its output to `log`.
pub fn shell(cmd: &str, cwd: &Path, env: &BTreeMap<String, String>, log: &Path) -> anyhow::Result<()> {
    let mut command = Command::new("sh");
    command.arg("-c").arg(cmd).current_dir(cwd).envs(env);
    logged(&mut command, cmd, log)
}

/// Appends `lines` to `log`.
pub fn append_lines(log: &Path, lines: &[String]) -> anyhow::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .with_context(|| format!("cannot open {}", log.display()))?;
    for line in lines {
        writeln!(file, "{line}").with_context(|| format!("cannot write {}", log.display()))?;
    }
    Ok(())
}

/// Runs `command` (described as `what`) with its output appended to `log`;
/// on failure the error quotes the log's last lines.
pub fn logged(command: &mut Command, what: &str, log: &Path) -> anyhow::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .with_context(|| format!("cannot open {}", log.display()))?;
    writeln!(file, "$ {what}")?;
    let status = command
        .stdin(Stdio::null())
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .with_context(|| format!("cannot run `{what}`"))?;
    if !status.success() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(15)..].join("\n");
        bail!("`{what}` failed ({status}); log {}:\n{tail}", log.display());
    }
    Ok(())
}
