//! The inputs every revision runs on: the files of a directory (each fed
//! to one command, as AFL++ does), or the lines of a test file (each a
//! whole shell command).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use weft_run::quote;

/// In a command, the word part replaced by the input file's path.
pub const INPUT_MARK: &str = "@@";

/// One input: every revision runs once on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// How reports and questions name it: the file name, or
    /// `tests-file:line`.
    pub name: String,
    pub source: Source,
}

/// Where an input comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file, by absolute path (runs start elsewhere than where it was
    /// named).
    File(PathBuf),
    /// A shell command, one line of a test file.
    Test(String),
}

impl Input {
    /// The shell text of this input's run, and the file to feed on stdin:
    /// for a file, `program` (the command's words) with every `@@` replaced
    /// by the file's path, or the file on stdin when no word holds `@@`;
    /// for a test, its own line.
    pub fn shell_command(&self, program: &[String]) -> (String, Option<&Path>) {
        match &self.source {
            Source::Test(line) => (line.clone(), None),
            Source::File(path) => {
                let path_text = path.display().to_string();
                let words: Vec<String> = program
                    .iter()
                    .map(|w| quote(&w.replace(INPUT_MARK, &path_text)))
                    .collect();
                let marked = program.iter().any(|w| w.contains(INPUT_MARK));
                (words.join(" "), (!marked).then_some(path.as_path()))
            }
        }
    }

    /// What the input is, for people: the test's command line, or the
    /// file's path.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Test(line) => line.clone(),
            Source::File(path) => path.display().to_string(),
        }
    }
}

/// Every regular file directly in `dir` (symbolic links followed, folders
/// not entered), in name order.
pub fn from_dir(dir: &Path) -> anyhow::Result<Vec<Input>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot read inputs {}", dir.display()))?;
    let mut inputs = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read inputs {}", dir.display()))?;
        let path = std::path::absolute(entry.path())?;
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            inputs.push(from_file(path));
        }
    }
    if inputs.is_empty() {
        bail!("no inputs: {} holds no regular file", dir.display());
    }
    inputs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(inputs)
}

/// The input file at `path` (absolute), named by its file name.
pub fn from_file(path: PathBuf) -> Input {
    let name = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
    Input {
        name,
        source: Source::File(path),
    }
}

/// Every line of the test file `file` that is neither empty nor a `#`
/// comment, as a shell command named `file:line`.
pub fn from_tests(file: &Path) -> anyhow::Result<Vec<Input>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read tests {}", file.display()))?;
    let label = file
        .file_name()
        .map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into());
    let inputs: Vec<Input> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(i, line)| Input {
            name: format!("{label}:{}", i + 1),
            source: Source::Test(line.trim().to_string()),
        })
        .collect();
    if inputs.is_empty() {
        bail!("no tests: {} has no line that is a command", file.display());
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_input(path: &str) -> Input {
        Input {
            name: "x".into(),
            source: Source::File(PathBuf::from(path)),
        }
    }

    #[test]
    fn the_mark_is_replaced_by_the_path_else_the_file_is_stdin() {
        let input = file_input("/in/it's");
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (cmd, stdin) = input.shell_command(&words(&["./prog", "--file=@@"]));
        assert_eq!(cmd, r"'./prog' '--file=/in/it'\''s'");
        assert_eq!(stdin, None);
        let (cmd, stdin) = input.shell_command(&words(&["./prog", "-v"]));
        assert_eq!(cmd, "'./prog' '-v'");
        assert_eq!(stdin, Some(Path::new("/in/it's")));
    }

    #[test]
    fn a_directory_gives_its_files_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b"), "2").unwrap();
        std::fs::write(dir.path().join("a"), "1").unwrap();
        std::fs::create_dir(dir.path().join("queue")).unwrap();
        let names: Vec<String> = from_dir(dir.path())
            .unwrap()
            .into_iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(names, ["a", "b"]);
        std::fs::remove_file(dir.path().join("a")).unwrap();
        std::fs::remove_file(dir.path().join("b")).unwrap();
        let err = from_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("holds no regular file"), "{err}");
        assert!(from_dir(&dir.path().join("none")).is_err());
    }

    #[test]
    fn a_test_file_gives_its_command_lines() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tests.txt");
        std::fs::write(&file, "# doubles\necho 2 | ./p\n\n  ./p 3  \n").unwrap();
        let tests = from_tests(&file).unwrap();
        assert_eq!(tests.len(), 2);
        assert_eq!(tests[1].name, "tests.txt:4");
        assert_eq!(tests[1].shell_command(&[]), ("./p 3".to_string(), None));
        std::fs::write(&file, "# nothing\n").unwrap();
        assert!(
            from_tests(&file)
                .unwrap_err()
                .to_string()
                .contains("no line that is a command")
        );
    }
}
