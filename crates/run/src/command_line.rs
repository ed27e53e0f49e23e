//! Shell words, done once: [`quote`] spells any text as one `sh` word,
//! [`command`] an argument vector as one command line, and [`direct_argv`]
//! reads a command line back when no shell is needed.
//!
//! Most tests of a suite are one program with arguments
//! (`"$WEFT_BUILD/prog" gcd 12 18`); starting `sh -c` for each costs about
//! as much as the program itself. [`direct_argv`] turns such a command into
//! its argument vector exactly as `sh` would (words, quotes, `$NAME`
//! expansion) and gives up, leaving the command to `sh -c`, on anything
//! else: operators, redirections, globs, substitutions, assignments,
//! builtins and keywords, or an unquoted expansion that `sh` would split or
//! glob.

use std::collections::BTreeMap;

/// Words `sh` treats itself (builtins and keywords): such a command keeps
/// its shell, since an executable of that name may behave otherwise.
const SHELL_WORDS: &[&str] = &[
    "!", ".", ":", "[", "[[", "]]", "{", "}", "alias", "bg", "break", "case", "cd", "command", "continue",
    "do", "done", "echo", "elif", "else", "esac", "eval", "exec", "exit", "export", "false", "fg", "fi",
    "for", "function", "getopts", "hash", "if", "in", "jobs", "kill", "local", "printf", "pwd", "read",
    "readonly", "return", "select", "set", "shift", "test", "then", "time", "times", "trap", "true", "type",
    "ulimit", "umask", "unalias", "unset", "until", "wait", "while",
];

/// Characters that make an unquoted word more than a literal.
const SPECIAL: &[char] = &[
    '|', '&', ';', '<', '>', '(', ')', '`', '\\', '*', '?', '[', ']', '#', '~', '{', '}', '!', '\n', '\r',
];

/// `text` as one `sh` word: single-quoted, each `'` written `'\''`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// An argument vector as one `sh` command line, every word quoted.
pub fn command<S: AsRef<str>>(argv: &[S]) -> String {
    let words: Vec<String> = argv.iter().map(|w| quote(w.as_ref())).collect();
    words.join(" ")
}

/// The argument vector `sh -c cmd` would execute, or `None` when the
/// command needs the shell. Variables come from `env`, then from this
/// process's environment (which the shell would inherit).
pub fn direct_argv(cmd: &str, env: &BTreeMap<String, String>) -> Option<Vec<String>> {
    let lookup = |name: &str| env.get(name).cloned().or_else(|| std::env::var(name).ok());
    let mut words = Vec::new();
    let mut chars = cmd.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            if c == ' ' || c == '\t' {
                break;
            }
            chars.next();
            match c {
                '\'' => loop {
                    match chars.next()? {
                        '\'' => break,
                        other => word.push(other),
                    }
                },
                '"' => loop {
                    match chars.next()? {
                        '"' => break,
                        '$' => word.push_str(&lookup(&variable(&mut chars)?).unwrap_or_default()),
                        '`' | '\\' => return None,
                        other => word.push(other),
                    }
                },
                '$' => {
                    // Unquoted: the shell would split and glob the value.
                    let value = lookup(&variable(&mut chars)?)?;
                    if value.is_empty() || value.contains([' ', '\t', '\n', '*', '?', '[']) {
                        return None;
                    }
                    word.push_str(&value);
                }
                c if SPECIAL.contains(&c) => return None,
                '=' if words.is_empty() => return None,
                c => word.push(c),
            }
        }
        words.push(word);
    }
    let first = words.first()?;
    (!first.is_empty() && !SHELL_WORDS.contains(&first.as_str())).then_some(words)
}

/// The name after a `$`: `NAME` or `{NAME}`; `None` for anything else
/// (`$1`, `$@`, `$(…)`, `${x:-y}`).
fn variable(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<String> {
    let braced = chars.peek() == Some(&'{');
    if braced {
        chars.next();
    }
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        let ok = c == '_' || c.is_ascii_alphabetic() || (!name.is_empty() && c.is_ascii_digit());
        if !ok {
            break;
        }
        name.push(c);
        chars.next();
    }
    if braced && chars.next() != Some('}') {
        return None;
    }
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(cmd: &str) -> Option<Vec<String>> {
        let env = BTreeMap::from([
            ("WEFT_BUILD".to_string(), "/w/b".to_string()),
            ("SPACED".to_string(), "a b".to_string()),
            ("EMPTY".to_string(), String::new()),
        ]);
        direct_argv(cmd, &env)
    }

    #[test]
    fn plain_commands_run_without_a_shell() {
        assert_eq!(
            argv(r#""$WEFT_BUILD/prog" gcd 12 18"#).unwrap(),
            ["/w/b/prog", "gcd", "12", "18"]
        );
        assert_eq!(
            argv("${WEFT_BUILD}/cal  -m\t3 'a b' x=1").unwrap(),
            ["/w/b/cal", "-m", "3", "a b", "x=1"]
        );
        assert_eq!(
            argv(r#"./p "" "$EMPTY" "$SPACED" 'it''s'"#).unwrap(),
            ["./p", "", "", "a b", "its"]
        );
        assert_eq!(
            argv(r#"p "--x=$NO_SUCH_VARIABLE_SET" -"#).unwrap(),
            ["p", "--x=", "-"]
        );
    }

    #[test]
    fn quoted_words_read_back_as_written() {
        let words = ["/w/it's here/prog", "", "a b", "$HOME", "'", "x\"y", "*", "\\n"];
        let line = format!("printf '%s\\0' {}", command(&words));
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(&line)
            .output()
            .unwrap();
        let printed: Vec<&str> = std::str::from_utf8(&out.stdout)
            .unwrap()
            .split_terminator('\0')
            .collect();
        assert_eq!(printed, words);
        // Without a quote inside, no shell is needed to read them back.
        let plain = ["/w/b/prog", "", "a b", "$HOME", "x\"y", "*"];
        assert_eq!(argv(&command(&plain)).unwrap(), plain);
    }

    #[test]
    fn shell_syntax_keeps_the_shell() {
        for cmd in [
            "prog > out",
            "prog < in",
            "a | b",
            "a && b",
            "a; b",
            "prog *.c",
            "prog $SPACED",
            "prog $EMPTY",
            "prog $NO_SUCH_VARIABLE_SET",
            "prog $(date)",
            "prog `date`",
            "prog \"$1\"",
            "prog \"${X:-y}\"",
            "prog \\n",
            "X=1 prog",
            "cd /tmp",
            "true",
            "echo hi",
            "prog ~/x",
            "prog # comment",
            "prog 'unterminated",
            "",
            "''",
        ] {
            assert_eq!(argv(cmd), None, "{cmd}");
        }
    }
}
