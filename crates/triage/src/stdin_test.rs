//! A test command feeding a file on stdin, seen as fixed arguments plus
//! bytes to mutate: the Siemens form `prog ARGS < FILE`, possibly after a
//! leading `cd DIR &&`. `--fuzz` keeps the command without its final
//! redirection and lets afl-fuzz vary what comes on stdin.

use std::path::{Path, PathBuf};

use weft_run::quote;

/// A test line split at its final stdin redirection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdinTest {
    /// The line without its final `< FILE`: the arguments stay fixed.
    pub command: String,
    /// The file the test feeds on stdin, resolved against the directory of
    /// a leading `cd DIR &&`, else the directory the test starts in.
    pub stdin: PathBuf,
}

impl StdinTest {
    /// Splits `line` when it ends with `< FILE` (one word, outside
    /// quotes); `None` for any other form.
    pub fn parse(line: &str, start_dir: &Path) -> Option<StdinTest> {
        let operators = unquoted(line, |c| "<>|&;()".contains(c));
        let &last = operators.last()?;
        if line.as_bytes()[last] != b'<' || last > 0 && line.as_bytes()[last - 1] == b'<' {
            return None;
        }
        let word = match shlex::split(&line[last + 1..])?.as_slice() {
            [word] => word.clone(),
            _ => return None,
        };
        let command = line[..last].trim_end().to_string();
        let base =
            leading_cd(line, &operators).map_or_else(|| start_dir.to_path_buf(), |d| start_dir.join(d));
        Some(StdinTest {
            command,
            stdin: base.join(word),
        })
    }

    /// The test line feeding `file` on stdin instead.
    pub fn with_stdin(&self, file: &Path) -> String {
        format!("{} < {}", self.command, quote(&file.display().to_string()))
    }
}

/// The directory of a leading `cd DIR &&`.
fn leading_cd(line: &str, operators: &[usize]) -> Option<String> {
    let &first = operators.first()?;
    if !line[first..].starts_with("&&") {
        return None;
    }
    match shlex::split(&line[..first])?.as_slice() {
        [cd, dir] if cd == "cd" => Some(dir.clone()),
        _ => None,
    }
}

/// The byte offsets of the characters of `line` outside quotes and not
/// escaped that `wanted` accepts.
fn unquoted(line: &str, wanted: impl Fn(char) -> bool) -> Vec<usize> {
    let mut found = Vec::new();
    let (mut single, mut double, mut escaped) = (false, false, false);
    for (at, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ if !single && !double && wanted(c) => found.push(at),
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Option<StdinTest> {
        StdinTest::parse(line, Path::new("/start"))
    }

    #[test]
    fn the_final_redirection_is_split_off() {
        let t = parse("'-?' 'a&' < temp-test/1.inp.1.1").unwrap();
        assert_eq!(t.command, "'-?' 'a&'");
        assert_eq!(t.stdin, Path::new("/start/temp-test/1.inp.1.1"));
        let t = parse("cd '/in puts' && ./meta 7 1 9 <input/inp.58").unwrap();
        assert_eq!(t.command, "cd '/in puts' && ./meta 7 1 9");
        assert_eq!(t.stdin, Path::new("/in puts/input/inp.58"));
        let t = parse("cd sub && ./p '<' \"a;b\" < /abs/f").unwrap();
        assert_eq!(t.command, "cd sub && ./p '<' \"a;b\"");
        assert_eq!(t.stdin, Path::new("/abs/f"));
        assert_eq!(
            t.with_stdin(Path::new("/x/it's")),
            r#"cd sub && ./p '<' "a;b" < '/x/it'\''s'"#
        );
    }

    #[test]
    fn other_forms_are_not_split() {
        for line in [
            "./p a b",
            "./p < in > out",
            "./p < in | sort",
            "./p << EOF",
            "./p < in more",
            "./p '< in'",
            "./p \\< in",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }
}
