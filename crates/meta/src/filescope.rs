//! File-scope sites: changes between functions (an added `#include`, a
//! new static flag, a global's new size or initializer, a macro with a new
//! body, a function with a new signature). There is no statement to switch
//! there, so the meta program keeps every revision's file-scope text: what
//! the original has and what each revision adds. That is only right when
//! nothing collides, so a name whose definition differs between revisions
//! is first given one copy per revision ([`crate::split`]: `K__weft_rev1`,
//! with the uses renamed, which moves the switch to the uses); [`merge`]
//! asks for that with [`NeedsSplit`].

use std::fmt;

use anyhow::bail;
use tree_sitter::Node;
use weft_c::ParsedFile;

use super::ctext;
use super::place::function_name;
use super::site::Branch;
use weft_c::syntax::{declarator_name, macro_made_name};

/// The meta text of a file-scope site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The original text, then what revisions add, each once.
    pub text: String,
}

/// Names whose definitions differ between revisions, so that each
/// revision needs its own copy before the site can be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeedsSplit(pub Vec<String>);

impl fmt::Display for NeedsSplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "revisions define {} differently", self.0.join(", "))
    }
}

impl std::error::Error for NeedsSplit {}

/// One top-level item of a file-scope text.
struct Item {
    text: String,
    /// Its code without comments and spacing.
    code: String,
    /// The names it defines (macros, globals, functions, types, tags).
    names: Vec<String>,
    /// A conditional directive (`#if` … `#endif`) that defines nothing.
    conditional: bool,
}

/// The top-level items of `text` (comments are not items), the site's text
/// starting at `path:line`. Fails on text the parser did not read as
/// declarations or definitions (a body after a header it did not take for
/// a function): its names are not known to be file-scope, and renaming
/// them could break code around.
fn items(
    path: &str,
    line: usize,
    text: &str,
    parse: &dyn Fn(&str) -> ParsedFile,
) -> anyhow::Result<Vec<Item>> {
    let file = parse(text);
    let tree = file.whole_tree();
    let root = tree.root_node();
    let mut cursor = root.walk();
    let nodes: Vec<Node<'_>> = root
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect();
    let line_of = |at: usize| line + text[..at.min(text.len())].matches('\n').count();
    if let Some(made) = nodes.iter().find_map(|n| macro_named_function(n)) {
        let at = file.original_range(made.byte_range()).map_or(0, |r| r.start);
        bail!(
            "{path}:{}: the function {} is named by a macro call; a copy per revision would rename the macro, not the function",
            line_of(at),
            file.node_text(made)
        );
    }
    if let Some(bad) = nodes
        .iter()
        .find(|n| n.is_error() || n.has_error() || n.kind() == "compound_statement")
    {
        let at = file.original_range(bad.byte_range()).map_or(0, |r| r.start);
        bail!(
            "{path}:{}: file-scope code not understood ({}); no copy per revision can be made of it",
            line_of(at),
            text[at.min(text.len())..].lines().next().unwrap_or("").trim()
        );
    }
    Ok(nodes
        .into_iter()
        .map(|n| {
            let text = match file.original_range(n.byte_range()) {
                Some(r) => file.text[r].to_string(),
                None => file.node_text(n).to_string(),
            };
            let mut names = Vec::new();
            defined_names(&file, n, &mut names);
            Item {
                code: ctext::code(&text),
                conditional: names.is_empty() && n.kind().starts_with("preproc_if"),
                names,
                text,
            }
        })
        .collect())
}

/// The macro call that names `node` when it is a function definition
/// whose name a macro makes (`static int PREFIX(twice)(int x) { … }`).
fn macro_named_function<'t>(node: &Node<'t>) -> Option<Node<'t>> {
    if node.kind() != "function_definition" {
        return None;
    }
    macro_made_name(node.child_by_field_name("declarator")?)
}

/// Collects the names `node` defines at file scope.
fn defined_names(file: &ParsedFile, node: Node<'_>, out: &mut Vec<String>) {
    let mut push = |n: Option<Node<'_>>| {
        if let Some(n) = n {
            let name = file.node_text(n).to_string();
            if !out.contains(&name) {
                out.push(name);
            }
        }
    };
    match node.kind() {
        "preproc_def" | "preproc_function_def" => push(node.child_by_field_name("name")),
        "function_definition" => {
            if let Some(name) = function_name(file, node)
                && !out.contains(&name)
            {
                out.push(name);
            }
        }
        "preproc_call"
            if file
                .node_text(node)
                .trim_start()
                .trim_start_matches('#')
                .trim_start()
                .starts_with("undef") =>
        {
            let args = node.child_by_field_name("argument").map(|a| file.node_text(a));
            if let Some(name) = args.and_then(|a| ctext::identifiers(a).next()) {
                let name = name.to_string();
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        "declaration" | "type_definition" => {
            let mut cursor = node.walk();
            for d in node.children_by_field_name("declarator", &mut cursor) {
                push(declarator_name(d));
            }
        }
        "enumerator" => push(node.child_by_field_name("name")),
        "struct_specifier" | "union_specifier" | "enum_specifier"
            if node.child_by_field_name("body").is_some() =>
        {
            push(node.child_by_field_name("name"))
        }
        _ => {}
    }
    if node.kind() == "function_definition" {
        return;
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        defined_names(file, child, out);
    }
}

/// Merges a file-scope site's texts: the original's items, then the items
/// each revision adds. `is_split` says whether a name already has one copy
/// per revision. Fails with [`NeedsSplit`] when a revision drops or
/// rewrites an item defining a name that has not, or when revisions add
/// different definitions of one name; and with a message when a revision
/// changes a conditional that defines nothing (no copy can switch it).
pub fn merge(
    path: &str,
    line: usize,
    original: &str,
    branches: &[Branch],
    is_split: impl Fn(&str) -> bool,
    parse: &dyn Fn(&str) -> ParsedFile,
) -> anyhow::Result<Merged> {
    let kept = items(path, line, original, parse)?;
    let mut added: Vec<Item> = Vec::new();
    let mut needs: Vec<String> = Vec::new();
    let need = |names: &[String], needs: &mut Vec<String>| {
        for n in names.iter().filter(|n| !is_split(n)) {
            if !needs.contains(n) {
                needs.push(n.clone());
            }
        }
    };
    for branch in branches {
        let mut theirs = items(path, line, &branch.text, parse)?;
        for item in &kept {
            if let Some(at) = theirs.iter().position(|t| t.code == item.code) {
                theirs.remove(at);
                continue;
            }
            if item.conditional {
                bail!(
                    "{path}:{line}: revision {} changes a conditional directive at file scope ({}); \
                     the preprocessor runs before a revision is picked",
                    branch.revisions[0],
                    item.text.lines().next().unwrap_or("").trim()
                );
            }
            need(&item.names, &mut needs);
        }
        for item in theirs {
            if added.iter().any(|a| a.code == item.code) {
                continue;
            }
            let clash = |other: &Item| other.names.iter().any(|n| item.names.contains(n));
            if kept.iter().chain(&added).any(clash) {
                need(&item.names, &mut needs);
            }
            added.push(item);
        }
    }
    if !needs.is_empty() {
        return Err(NeedsSplit(needs).into());
    }
    let mut text = original.to_string();
    for item in &added {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&item.text);
        text.push('\n');
    }
    Ok(Merged { text })
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

    fn plain(text: &str) -> ParsedFile {
        ParsedFile::parse_plain("site.c", text)
    }

    /// The names a merge of `branches` into `original` asks to split.
    fn split_asked(original: &str, branches: &[Branch]) -> Vec<String> {
        let err = merge("f.c", 7, original, branches, |_| false, &plain).unwrap_err();
        err.downcast::<NeedsSplit>().expect("a split is asked for").0
    }

    #[test]
    fn added_declarations_are_kept_for_every_revision() {
        let original = "#define flush_output(w) (wp=(w),flush_window())\n";
        let rev = "/* fresh */\nstatic int fresh;\n#define flush_output(w) (wp=(w),flush_window())\n";
        let merged = merge("f.c", 3, original, &[branch(&[1, 2], rev)], |_| false, &plain).unwrap();
        assert_eq!(merged.text, format!("{original}static int fresh;\n"));
    }

    #[test]
    fn a_changed_definition_asks_for_one_copy_per_revision() {
        let original = "static int a[4];\n#define N 3\nint f(int x);\n";
        let changed_array = "static int a[3];\n#define N 3\nint f(int x);\n";
        assert_eq!(split_asked(original, &[branch(&[1], changed_array)]), ["a"]);
        let changed_macro_and_prototype = "static int a[4];\n#define N 4\nint f(int x, int y);\n";
        assert_eq!(
            split_asked(original, &[branch(&[1], changed_macro_and_prototype)]),
            ["N", "f"]
        );
        // A typedef is named by its declarator's type identifier.
        let changed_typedef = "typedef long T;\n";
        assert_eq!(
            split_asked("typedef int T;\n", &[branch(&[1], changed_typedef)]),
            ["T"]
        );
        // A removed global, and two revisions adding one name differently.
        let removed = "#define N 3\nint f(int x);\n";
        assert_eq!(split_asked(original, &[branch(&[1], removed)]), ["a"]);
        let twice = [branch(&[1], "int z = 1;\n"), branch(&[2], "int z = 2;\n")];
        assert_eq!(split_asked("", &twice), ["z"]);
        // Once split, both copies are kept.
        let merged = merge(
            "f.c",
            7,
            "static int a__weft_rev0[4];\n",
            &[branch(&[1], "static int a__weft_rev1[3];\n")],
            |n| n.contains("__weft_rev"),
            &plain,
        )
        .unwrap();
        assert_eq!(
            merged.text,
            "static int a__weft_rev0[4];\nstatic int a__weft_rev1[3];\n"
        );
    }

    #[test]
    fn comments_and_blank_lines_are_no_change_and_a_bare_conditional_is_refused() {
        let original = "/* v0 */\n\nint x;\n";
        let merged = merge(
            "f.c",
            1,
            original,
            &[branch(&[1], "/* version 1 */\nint  x;\n")],
            |_| false,
            &plain,
        )
        .unwrap();
        assert_eq!(merged.text, original);
        let err = merge(
            "f.c",
            1,
            "#if A\n#include <x.h>\n#endif\n",
            &[branch(&[1], "#if B\n#include <x.h>\n#endif\n")],
            |_| false,
            &plain,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("changes a conditional directive"),
            "{err}"
        );
    }
}
