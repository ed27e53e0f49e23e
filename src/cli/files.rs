//! Writing the files commands produce, without ever destroying a file weft
//! did not write.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Writes `text` to `output` atomically (a temporary file renamed into
/// place). An existing `output` is replaced only when `is_ours` recognises
/// it as a `what` weft wrote: a mistyped `-o` never destroys another file.
pub(super) fn replace_file(
    output: &Path,
    text: &str,
    what: &str,
    is_ours: impl Fn(&str) -> bool,
) -> anyhow::Result<()> {
    replace_with(output, what, is_ours, |w| w.write_all(text.as_bytes()))
}

/// [`replace_file`] with the contents streamed by `write`.
pub(super) fn replace_with(
    output: &Path,
    what: &str,
    is_ours: impl Fn(&str) -> bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    if output.exists() {
        let old = std::fs::read_to_string(output).unwrap_or_default();
        if !is_ours(&old) {
            anyhow::bail!(
                "refusing to replace `{}`: it is not a {what} (weft only overwrites its own output)",
                output.display()
            );
        }
    }
    let dir = match output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("cannot write in {}", dir.display()))?;
    let mut buffered = std::io::BufWriter::new(tmp.as_file_mut());
    write(&mut buffered)
        .and_then(|()| buffered.flush())
        .with_context(|| format!("cannot write {}", output.display()))?;
    drop(buffered);
    tmp.persist(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    Ok(())
}
