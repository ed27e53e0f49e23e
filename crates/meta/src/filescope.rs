//! File-scope sites: changes between functions, as fixes often make them
//! (an added `#include`, a new static flag, a macro with a new body).
//! There is no statement to switch there, so declarations a revision adds
//! are kept for every revision (they change nothing for the others), and a
//! macro whose body a revision changes gets one body that picks the
//! revision where it is used. Anything else is refused.

use std::fmt::Write;

use anyhow::bail;

use super::site::Branch;

/// A file-scope site merged across revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The original items, with changed macros made to pick.
    kept: Vec<Item>,
    /// Text the revisions add, each once, in revision order.
    added: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Text(String),
    Macro(Macro),
}

/// A `#define` and the body each revision gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Macro {
    /// `#define NAME` or `#define NAME(params)`.
    head: String,
    name: String,
    original: String,
    /// Bodies other than the original, with their revisions.
    bodies: Vec<(Vec<usize>, String)>,
}

/// Splits file-scope text into items: a directive with its continuation
/// lines, or a run of other lines (declarations, comments, blanks).
fn items(text: &str) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with('#') {
            let mut directive = line.to_string();
            while directive.trim_end().ends_with('\\') {
                let Some(next) = lines.next() else { break };
                directive.push_str(next);
            }
            out.push(match define(&directive) {
                Some((head, name, body)) => Item::Macro(Macro {
                    head,
                    name,
                    original: body,
                    bodies: Vec::new(),
                }),
                None => Item::Text(directive),
            });
        } else if let Some(Item::Text(t)) = out
            .last_mut()
            .filter(|i| matches!(i, Item::Text(t) if !t.trim_start().starts_with('#')))
        {
            t.push_str(line);
        } else {
            out.push(Item::Text(line.to_string()));
        }
    }
    out
}

/// `(head, name, body)` of a `#define` directive.
fn define(directive: &str) -> Option<(String, String, String)> {
    let rest = directive
        .trim_start()
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("define")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, mut after) = rest.split_at(name_len);
    let mut head = format!("#define {name}");
    if after.starts_with('(') {
        let close = after.find(')')?;
        head.push_str(&after[..=close]);
        after = &after[close + 1..];
    }
    Some((head, name.to_string(), after.trim().to_string()))
}

/// Merges a file-scope site's texts, or says why it cannot be switched.
/// `uses_in_conditionals` says whether a macro name is tested by `#if`
/// somewhere in the file (a run-time pick cannot serve the preprocessor).
pub fn merge(
    path: &str,
    line: usize,
    original: &str,
    branches: &[Branch],
    uses_in_conditionals: impl Fn(&str) -> bool,
) -> anyhow::Result<Merged> {
    let mut kept = items(original);
    let mut added: Vec<String> = Vec::new();
    for branch in branches {
        let revs = &branch.revisions;
        let mut theirs = items(&branch.text);
        for item in &mut kept {
            let Some(at) = theirs.iter().position(|t| same_item(t, item)) else {
                bail!(
                    "{path}:{line}: revision {} removes or rewrites file-scope text it cannot switch \
                     (only added declarations and new macro bodies can be): {}",
                    revs[0],
                    first_line(item)
                );
            };
            if let (Item::Macro(m), Item::Macro(t)) = (item, theirs.remove(at))
                && t.original != m.original
            {
                m.bodies.push((revs.clone(), t.original));
            }
        }
        for rest in theirs {
            let text = match rest {
                Item::Text(t) => t,
                Item::Macro(m) => format!("{} {}\n", m.head, m.original),
            };
            if !added.contains(&text) {
                added.push(text);
            }
        }
    }
    for item in &kept {
        if let Item::Macro(m) = item
            && !m.bodies.is_empty()
            && uses_in_conditionals(&m.name)
        {
            bail!(
                "{path}:{line}: revisions change macro `{}`, which an #if tests: the preprocessor cannot pick a revision",
                m.name
            );
        }
    }
    Ok(Merged { kept, added })
}

fn same_item(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Text(x), Item::Text(y)) => x == y,
        (Item::Macro(x), Item::Macro(y)) => x.head == y.head,
        _ => false,
    }
}

fn first_line(item: &Item) -> String {
    let text = match item {
        Item::Text(t) => t.trim(),
        Item::Macro(m) => m.head.as_str(),
    };
    text.lines().next().unwrap_or("").to_string()
}

/// The site's text in the meta program.
pub fn write(slot: usize, id: usize, merged: &Merged) -> String {
    let mut out = String::new();
    for item in &merged.kept {
        match item {
            Item::Text(t) => out.push_str(t),
            Item::Macro(m) if m.bodies.is_empty() => {
                let _ = writeln!(out, "{} {}", m.head, m.original);
            }
            Item::Macro(m) => out.push_str(&picking_macro(slot, id, m)),
        }
    }
    for text in &merged.added {
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// A macro whose body picks the revision where it is expanded: a
/// conditional expression, or when a body is a statement (`do … while
/// (0)`, `{ … }`) an `if` chain inside `do … while (0)`.
fn picking_macro(slot: usize, id: usize, m: &Macro) -> String {
    let test = |revs: &[usize]| {
        revs.iter()
            .map(|r| format!("weft_meta_rev({slot}) == {r}"))
            .collect::<Vec<_>>()
            .join(" || ")
    };
    // A revision whose body is a statement can only be used where a
    // statement goes, so one statement body makes the whole pick a
    // statement (an expression body is a statement too).
    let statement = |b: &str| b.starts_with("do") || b.starts_with('{');
    let any_statement = statement(&m.original) || m.bodies.iter().any(|(_, b)| statement(b));
    let mut out = format!(
        "/* weft site {id}: the body of {} picks the revision */\n{} \\\n",
        m.name, m.head
    );
    if any_statement {
        out.push_str("  do { \\\n");
        for (i, (revs, body)) in m.bodies.iter().enumerate() {
            let keyword = if i == 0 { "if" } else { "else if" };
            let _ = writeln!(out, "    {keyword} ({}) {{ {body}; }} \\", test(revs));
        }
        let _ = write!(out, "    else {{ {}; }} \\\n  }} while (0)\n", m.original);
    } else {
        out.push_str("  ( \\\n");
        for (revs, body) in &m.bodies {
            let _ = writeln!(out, "    ({}) ? ({body}) : \\", test(revs));
        }
        let _ = writeln!(out, "    ({}))", m.original);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn branch(revs: &[usize], text: &str) -> Branch {
        Branch {
            revisions: revs.to_vec(),
            text: text.to_string(),
            definitions: Vec::new(),
        }
    }

    #[test]
    fn added_declarations_are_kept_and_changed_macros_pick() {
        let original = "#define flush_output(w) (wp=(w),flush_window())\n";
        let rev = "/* fresh */\nstatic bool fresh;\n#define flush_output(w) (fresh = 0, \\\n  wp = (w), flush_window ())\n";
        let merged = merge("f.c", 3, original, &[branch(&[1, 2], rev)], |_| false).unwrap();
        assert_eq!(merged.added, ["/* fresh */\nstatic bool fresh;\n"]);
        let text = write(0, 4, &merged);
        assert!(text.contains("#define flush_output(w) \\\n  ( \\\n    (weft_meta_rev(0) == 1 || weft_meta_rev(0) == 2) ? ((fresh = 0, \\\n  wp = (w), flush_window ())) : \\\n    ((wp=(w),flush_window())))\n"), "{text}");
        assert!(text.ends_with("static bool fresh;\n"), "{text}");
    }

    #[test]
    fn removals_and_preprocessor_tested_macros_are_refused() {
        let original = "static int a;\n#define N 3\n";
        let err = merge("f.c", 7, original, &[branch(&[1], "#define N 4\n")], |_| false).unwrap_err();
        assert!(
            err.to_string()
                .contains("f.c:7: revision 1 removes or rewrites file-scope text"),
            "{err}"
        );
        let err = merge(
            "f.c",
            7,
            original,
            &[branch(&[2], "static int a;\n#define N 4\n")],
            |n| n == "N",
        )
        .unwrap_err();
        assert!(err.to_string().contains("macro `N`, which an #if tests"), "{err}");
        let merged = merge(
            "f.c",
            7,
            "#define S do { a(); } while (0)\n",
            &[branch(&[1], "#define S do { b(); } while (0)\n")],
            |_| false,
        )
        .unwrap();
        assert_eq!(merged.added, Vec::<String>::new());
    }
}
