//! Before sites are found, each revision's texts are brought to the form
//! the switches need: changes of comments and spacing alone are undone
//! (they cannot change behaviour, and need no switch), and every
//! file-scope name whose definition differs between revisions is split
//! into one copy per revision, MSV-style: revision n's texts call it
//! `name__weft_rev<k>`, where k is the first revision with the same
//! definition. The copies then live side by side at file scope, and the
//! switch moves to the uses, where a statement or function can pick the
//! revision at run time without changing what any revision computes (a
//! macro body picked by a conditional expression would not: `2*K` with
//! `#define K 1+1` is 3, with `(…) ? (1+1) : …` it is 4).

use std::collections::BTreeMap;
use std::path::PathBuf;

use weft_c::ParsedFile;
use weft_c::syntax::declarator_name;

use super::ctext;
use super::hunks::hunks;
use super::place::function_name;

/// The suffix of revision `k`'s copy of a split name.
pub fn suffix(k: usize) -> String {
    format!("__weft_rev{k}")
}

/// Whether `name` is a revision's copy of a split name.
pub fn is_copy(name: &str) -> bool {
    name.rsplit_once("__weft_rev")
        .is_some_and(|(base, k)| !base.is_empty() && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// `text` (a revision of `original`) with every change that leaves the
/// code as it was (comments, spacing, blank lines) undone.
pub fn without_cosmetic_changes(original: &str, text: &str) -> String {
    let code = ctext::code(text);
    let old: Vec<&str> = original.split_inclusive('\n').collect();
    let mut new: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    // From the last hunk back, so the earlier hunks' lines stay put.
    for h in hunks(original, text).iter().rev() {
        let mut candidate = new.clone();
        candidate.splice(h.new.clone(), old[h.old.clone()].iter().map(|l| l.to_string()));
        if ctext::code(&candidate.concat()) == code {
            new = candidate;
        }
    }
    new.concat()
}

/// How a file's text is parsed (the front end, which reads old-style
/// definitions and macros as the compiler would).
pub type Parse<'a> = dyn Fn(&std::path::Path, &str) -> ParsedFile + 'a;

/// The texts of every revision (0 = the original) of the files involved.
pub type Texts = Vec<BTreeMap<PathBuf, String>>;

/// `texts` with each of `names` split into one copy per revision. Two
/// revisions share a copy only when the name's definition and the
/// definitions of every split name it reaches are the same in both: a macro
/// whose text is equal in two revisions but names a global that differs
/// (`#define flush(w) (fresh = false, …)` with two different `fresh`)
/// needs a copy each, or one revision's copy would use the other's global.
pub fn split(mut texts: Texts, names: &[String], parse: &Parse) -> Texts {
    let definitions: BTreeMap<&str, Vec<String>> = names
        .iter()
        .map(|name| {
            (
                name.as_str(),
                texts.iter().map(|files| definition(files, name, parse)).collect(),
            )
        })
        .collect();
    for name in names {
        let keys: Vec<String> = (0..texts.len())
            .map(|n| reach_key(&definitions, name, n))
            .collect();
        for (n, files) in texts.iter_mut().enumerate() {
            let k = keys.iter().position(|d| *d == keys[n]).unwrap_or(n);
            let copy = format!("{name}{}", suffix(k));
            for (rel, text) in files.iter_mut() {
                if ctext::identifiers(text).any(|i| i == name) {
                    *text = rename(&parse(rel, text), name, &copy);
                }
            }
        }
    }
    texts
}

/// Revision `n`'s definitions of `name` and of every split name they
/// reach, each once (cycles end where they meet a name already taken).
fn reach_key(definitions: &BTreeMap<&str, Vec<String>>, name: &str, n: usize) -> String {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![name];
    let mut key = String::new();
    while let Some(next) = todo.pop() {
        if !seen.insert(next) {
            continue;
        }
        let text = &definitions[next][n];
        key.push_str(&format!("{next}: {text}\n"));
        let mut reached: Vec<&str> = ctext::identifiers(text)
            .filter_map(|i| definitions.get_key_value(i).map(|(k, _)| *k))
            .filter(|i| !seen.contains(i))
            .collect();
        reached.sort_unstable();
        reached.dedup();
        todo.extend(reached.into_iter().rev());
    }
    key
}

/// `text` with each use of the file-scope `name` renamed `copy`: not a
/// parameter or local of that name (nor its uses in that function), not a
/// macro's parameter, not a member.
fn rename(file: &ParsedFile, name: &str, copy: &str) -> String {
    let text = &*file.text;
    let mut at: Vec<std::ops::Range<usize>> = Vec::new();
    let tree = file.whole_tree();
    uses(file, tree.root_node(), name, &mut at);
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    at.sort_by_key(|r| r.start);
    for r in at {
        if r.start < pos {
            continue;
        }
        out.push_str(&text[pos..r.start]);
        out.push_str(copy);
        pos = r.end;
    }
    out.push_str(&text[pos..]);
    out
}

/// Collects where `node` uses the file-scope `name`.
fn uses(file: &ParsedFile, node: tree_sitter::Node<'_>, name: &str, at: &mut Vec<std::ops::Range<usize>>) {
    match node.kind() {
        "identifier" | "type_identifier" if file.node_text(node) == name => {
            at.extend(file.original_range(node.byte_range()))
        }
        // A function whose parameter or local has the name: its uses there
        // are the local's (the name in its declarator is still the global).
        "function_definition" if shadows(file, node, name) => {
            if let Some(d) = node.child_by_field_name("declarator").and_then(declarator_name)
                && file.node_text(d) == name
            {
                at.extend(file.original_range(d.byte_range()));
            }
            return;
        }
        // A macro's or a prototype's parameter names are its own.
        "preproc_params" => return,
        "parameter_list"
            if node.parent().is_some_and(|p| p.kind() == "function_declarator") && !inside_body(node) =>
        {
            return;
        }
        "preproc_arg" => {
            let params = macro_params(file, node);
            if params.iter().any(|p| p == name) {
                return;
            }
            let Some(whole) = file.original_range(node.byte_range()) else {
                return;
            };
            let base = whole.start;
            let body = &file.text[whole];
            at.extend(
                ctext::identifier_ranges(body)
                    .filter(|r| &body[r.clone()] == name)
                    .map(|r| base + r.start..base + r.end),
            );
            return;
        }
        _ => {}
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        uses(file, child, name, at);
    }
}

/// Whether a function definition has a parameter or local named `name`.
fn shadows(file: &ParsedFile, def: tree_sitter::Node<'_>, name: &str) -> bool {
    let declarator = def.child_by_field_name("declarator");
    let in_params = declarator
        .and_then(|d| d.child_by_field_name("parameters"))
        .is_some_and(|p| declares(file, p, name));
    let in_body = def
        .child_by_field_name("body")
        .is_some_and(|b| declares(file, b, name));
    // Old-style definitions declare their parameters before the body.
    let mut cursor = def.walk();
    let old_style = def
        .named_children(&mut cursor)
        .any(|c| c.kind() == "declaration" && declares(file, c, name));
    in_params || in_body || old_style
}

/// Whether a parameter or declaration under `node` declares `name`.
fn declares(file: &ParsedFile, node: tree_sitter::Node<'_>, name: &str) -> bool {
    let is = |d: tree_sitter::Node<'_>| declarator_name(d).is_some_and(|d| file.node_text(d) == name);
    let own = match node.kind() {
        "parameter_declaration" => node.child_by_field_name("declarator").is_some_and(is),
        "declaration" => {
            let mut cursor = node.walk();
            node.children_by_field_name("declarator", &mut cursor).any(is)
        }
        "identifier" => {
            node.parent().is_some_and(|p| p.kind() == "parameter_list") && file.node_text(node) == name
        }
        _ => false,
    };
    let mut cursor = node.walk();
    own || node.named_children(&mut cursor).any(|c| declares(file, c, name))
}

/// Whether `node` is inside a function body.
fn inside_body(node: tree_sitter::Node<'_>) -> bool {
    let mut n = node.parent();
    while let Some(p) = n {
        if p.kind() == "compound_statement" {
            return true;
        }
        n = p.parent();
    }
    false
}

/// The parameters of the function-like macro whose body is `arg`.
fn macro_params(file: &ParsedFile, arg: tree_sitter::Node<'_>) -> Vec<String> {
    arg.parent()
        .filter(|d| d.kind() == "preproc_function_def")
        .and_then(|d| d.child_by_field_name("parameters"))
        .map(|p| {
            ctext::identifiers(file.node_text(p))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The code of every top-level item of `files` that defines `name`.
fn definition(files: &BTreeMap<PathBuf, String>, name: &str, parse: &Parse) -> String {
    let mut out = String::new();
    for (rel, text) in files {
        if !ctext::identifiers(text).any(|i| i == name) {
            continue;
        }
        let file = parse(rel, text);
        let tree = file.whole_tree();
        let root = tree.root_node();
        let mut cursor = root.walk();
        for item in root.named_children(&mut cursor) {
            if defines(&file, item, name) {
                out.push_str(&ctext::code(file.node_text(item)));
                out.push('\n');
            }
        }
    }
    out
}

/// Whether a top-level item defines or declares `name`.
fn defines(file: &ParsedFile, item: tree_sitter::Node<'_>, name: &str) -> bool {
    let named = |n: Option<tree_sitter::Node<'_>>| n.is_some_and(|n| file.node_text(n) == name);
    match item.kind() {
        "function_definition" => function_name(file, item).is_some_and(|n| n == name),
        "preproc_def" | "preproc_function_def" => named(item.child_by_field_name("name")),
        "declaration" | "type_definition" => {
            let mut cursor = item.walk();
            let by_declarator = item
                .children_by_field_name("declarator", &mut cursor)
                .any(|d| named(declarator_name(d)));
            by_declarator || ctext::identifiers(file.node_text(item)).any(|i| i == name) && has_body(item)
        }
        "comment" | "expression_statement" => false,
        // Conditionals, #undef and the like: any mention counts.
        _ => ctext::identifiers(file.node_text(item)).any(|i| i == name),
    }
}

/// Whether a declaration defines a struct, union or enum (whose tag or
/// enumerators it then defines).
fn has_body(item: tree_sitter::Node<'_>) -> bool {
    item.child_by_field_name("type")
        .is_some_and(|t| t.child_by_field_name("body").is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosmetic_changes_are_undone_and_others_kept() {
        let original = "/* v0 */\n\nint x;\nint f(void)\n{\n  return 1;\n}\n";
        let text = "/* version 1 */\nint  x;\nint f(void)\n{\n  return 2; \n}\n";
        assert_eq!(
            without_cosmetic_changes(original, text),
            "/* v0 */\n\nint x;\nint f(void)\n{\n  return 2; \n}\n"
        );
    }

    #[test]
    fn a_name_defined_differently_gets_a_copy_per_definition() {
        let file = |k: &str| {
            BTreeMap::from([(
                PathBuf::from("a.c"),
                format!("#define K {k}\nint g(void) {{ return 2*K; }}\n"),
            )])
        };
        let parse = |p: &std::path::Path, t: &str| ParsedFile::parse_plain(p, t);
        let texts = split(
            vec![file("1+1"), file("2+1"), file("1+1")],
            &["K".to_string()],
            &parse,
        );
        let a = |n: usize| texts[n][&PathBuf::from("a.c")].clone();
        assert_eq!(
            a(0),
            "#define K__weft_rev0 1+1\nint g(void) { return 2*K__weft_rev0; }\n"
        );
        assert!(a(1).contains("#define K__weft_rev1 2+1") && a(1).contains("2*K__weft_rev1"));
        assert_eq!(a(2), a(0));
        assert!(is_copy("K__weft_rev12") && !is_copy("K__weft_rev") && !is_copy("K"));
    }

    #[test]
    fn a_macro_alike_in_two_revisions_gets_a_copy_each_when_a_name_it_uses_differs() {
        // Revisions 1 and 2 spell `flush` alike, but their `fresh` differ;
        // listing `flush` first or last must give the same answer.
        let file = |fresh: &str, flush: &str| {
            BTreeMap::from([(
                PathBuf::from("a.c"),
                format!("{fresh}\n#define flush(w) {flush}\nint g(int w) {{ return flush(w); }}\n"),
            )])
        };
        let parse = |p: &std::path::Path, t: &str| ParsedFile::parse_plain(p, t);
        for order in [["flush", "fresh"], ["fresh", "flush"]] {
            let texts = split(
                vec![
                    file("static int fresh;", "(w)"),
                    file("static int fresh;", "(fresh = 0, w)"),
                    file("static int fresh = 1;", "(fresh = 0, w)"),
                ],
                &order.map(str::to_string),
                &parse,
            );
            let a = |n: usize| texts[n][&PathBuf::from("a.c")].clone();
            assert!(
                a(1).contains("#define flush__weft_rev1(w) (fresh__weft_rev0 = 0, w)"),
                "{order:?}: {}",
                a(1)
            );
            assert!(
                a(2).contains("#define flush__weft_rev2(w) (fresh__weft_rev2 = 0, w)"),
                "{order:?}: {}",
                a(2)
            );
        }
    }
}
