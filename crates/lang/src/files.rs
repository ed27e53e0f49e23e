//! The files weft reads and writes for an aspect (the aspect and its
//! imports, `readJSON`, `writeJSON`), bounded in size: a device, a pipe or
//! a runaway value never makes weft read or write without end, and a write
//! that fails leaves nothing behind.

use std::io::{self, Read, Write};
use std::path::Path;

/// The text of the regular file at `path`, refused (as an error saying
/// why) when it is not a regular file (a device, a pipe: reading it could
/// block or never end), holds more than `limit` bytes (`0`: no limit), or
/// is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::other(
            "not a regular file (a directory, a device, a pipe or a socket): aspects read only files",
        ));
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path)?;
    if limit == 0 {
        { file }.read_to_end(&mut bytes)?;
    } else {
        // One byte more than allowed tells a file at the limit from one over it.
        file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(too_large(limit));
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"))
}

/// Writes `fill`'s output to `path` whole or not at all: into a temporary
/// file beside it, renamed over `path` once complete. More than `limit`
/// bytes (`0`: no limit) is an error, and so is a `path` that exists and
/// is not a regular file (renaming over a device would replace it).
pub fn write_whole(
    path: &Path,
    limit: u64,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err(io::Error::other(
            "not a regular file (a directory, a device, a pipe or a socket): aspects write only files",
        ));
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut bounded = Bounded {
            inner: io::BufWriter::new(temporary.as_file_mut()),
            limit,
            written: 0,
        };
        fill(&mut bounded)?;
        bounded.inner.flush()?;
    }
    temporary.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn too_large(limit: u64) -> io::Error {
    io::Error::other(format!(
        "larger than the limit of {limit} bytes ({})",
        crate::limits::raise_hint("file")
    ))
}

/// A writer that fails once more than `limit` bytes (`0`: no limit) would
/// have been written.
struct Bounded<W> {
    inner: W,
    limit: u64,
    written: u64,
}

impl<W: Write> Write for Bounded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.written = self.written.saturating_add(buf.len() as u64);
        if self.limit != 0 && self.written > self.limit {
            return Err(too_large(self.limit));
        }
        self.inner.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounded_and_refuse_devices() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "12345").unwrap();
        assert_eq!(read_text(&path, 5).unwrap(), "12345");
        assert!(
            read_text(&path, 4)
                .unwrap_err()
                .to_string()
                .contains("limit of 4 bytes")
        );
        assert!(read_text(&path, 0).is_ok());
        let device = read_text(Path::new("/dev/zero"), 0).unwrap_err().to_string();
        assert!(device.contains("not a regular file"), "{device}");
    }

    #[test]
    fn a_write_over_the_limit_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.json");
        let err = write_whole(&path, 4, |w| w.write_all(b"12345")).unwrap_err();
        assert!(err.to_string().contains("limit of"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no file left");
        write_whole(&path, 5, |w| w.write_all(b"12345")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"12345");
        let device = write_whole(Path::new("/dev/null"), 0, |_| Ok(())).unwrap_err();
        assert!(device.to_string().contains("not a regular file"));
    }
}
