//! Unified diffs of woven files, for `weft weave --diff`.

use std::path::Path;

/// A unified diff from `old` to `new` for `path` (empty when equal).
pub fn unified_diff(path: &Path, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    // Relative paths get git's a/ b/ prefixes (`patch -p1` applies them);
    // an absolute path has no prefix to strip, so it is shown as it is.
    let name = path.display();
    let (from, to) = if path.is_absolute() {
        (name.to_string(), name.to_string())
    } else {
        (format!("a/{name}"), format!("b/{name}"))
    };
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&from, &to)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_names_the_file_and_shows_the_change() {
        let d = unified_diff(Path::new("f.c"), "a();\nb();\n", "a();\nx();\nb();\n");
        assert!(d.starts_with("--- a/f.c\n+++ b/f.c\n"), "{d}");
        assert!(d.contains("+x();\n"), "{d}");
        assert_eq!(unified_diff(Path::new("f.c"), "same", "same"), "");
        let d = unified_diff(Path::new("/src/f.c"), "a();\n", "b();\n");
        assert!(d.starts_with("--- /src/f.c\n+++ /src/f.c\n"), "{d}");
    }
}
