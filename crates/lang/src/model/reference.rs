//! The join point reference generated from the catalogue: plain text for the
//! terminal and Markdown for docs/joinpoints.md.

use std::fmt::Write;

use super::catalogue::{AttributeSpec, COMMON, KindSpec, kinds};

/// The command that regenerates docs/joinpoints.md.
pub const REGENERATE: &str = "cargo run -- joinpoints --markdown > docs/joinpoints.md";

/// The whole reference in Markdown (the content of docs/joinpoints.md).
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# Join points\n\n");
    let _ = writeln!(
        out,
        "Generated from `crates/lang/src/model/catalogue.rs`; do not edit. Regenerate with `{REGENERATE}`.\n"
    );
    out.push_str(
        "Names are MANET's (snake_case); the aliases listed (mostly Clava's camelCase) are accepted too. \
         A select chain `a.b.c` selects `b` from each `a`, then `c` from each `b`.\n\n",
    );
    out.push_str("## Attributes of every join point\n\n");
    attribute_table(&mut out, COMMON.iter());
    for k in kinds() {
        kind_markdown(&mut out, k);
    }
    out
}

/// The Markdown section of one kind.
pub fn kind_markdown(out: &mut String, k: &'static KindSpec) {
    let _ = writeln!(out, "## `{}`\n\n{}\n", k.name, k.doc);
    if !k.aliases.is_empty() {
        let _ = writeln!(out, "Aliases: {}\n", code_list(k.aliases));
    }
    if k.selects.is_empty() {
        out.push_str("Selects: nothing.\n\n");
    } else {
        let _ = writeln!(out, "Selects: {}\n", code_list(k.selects));
    }
    if !k.attributes.is_empty() {
        out.push_str("Attributes (besides those of every join point):\n\n");
        attribute_table(out, k.attributes.iter());
    }
    out.push_str("Actions:\n\n");
    for a in k.actions {
        let _ = writeln!(out, "- `{}`: {}", a.syntax, a.doc);
    }
    out.push('\n');
}

fn attribute_table<'a>(out: &mut String, attrs: impl Iterator<Item = &'a AttributeSpec>) {
    out.push_str("| attribute | aliases | type | description |\n|---|---|---|---|\n");
    for a in attrs {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            a.name,
            code_list(a.aliases),
            a.ty.label(),
            a.doc.replace('|', "\\|")
        );
    }
    out.push('\n');
}

fn code_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reference of every kind, or of one, as plain text.
pub fn text(only: Option<&'static KindSpec>) -> String {
    let mut out = String::new();
    if only.is_none() {
        out.push_str("Attributes of every join point:\n");
        attribute_lines(&mut out, COMMON.iter());
        out.push('\n');
    }
    for k in kinds().iter().filter(|k| only.is_none_or(|o| o.name == k.name)) {
        let _ = writeln!(out, "{}", k.name);
        let _ = writeln!(out, "  {}", k.doc);
        if !k.aliases.is_empty() {
            let _ = writeln!(out, "  aliases: {}", k.aliases.join(", "));
        }
        let _ = writeln!(
            out,
            "  selects: {}",
            if k.selects.is_empty() {
                "nothing".to_string()
            } else {
                k.selects.join(", ")
            }
        );
        if !k.attributes.is_empty() {
            out.push_str("  attributes:\n");
            attribute_lines(&mut out, k.attributes.iter());
        }
        let actions: Vec<&str> = k.actions.iter().map(|a| a.syntax).collect();
        let _ = writeln!(out, "  actions: {}\n", actions.join("; "));
    }
    out
}

fn attribute_lines<'a>(out: &mut String, attrs: impl Iterator<Item = &'a AttributeSpec>) {
    for a in attrs {
        let aliases = if a.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also {})", a.aliases.join(", "))
        };
        let _ = writeln!(out, "    {}{}: {}. {}", a.name, aliases, a.ty.label(), a.doc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::kind;

    #[test]
    fn every_kind_and_attribute_is_documented() {
        let md = markdown();
        for k in kinds() {
            assert!(md.contains(&format!("## `{}`", k.name)));
            for a in k.attributes {
                assert!(md.contains(&format!("| `{}` |", a.name)));
            }
        }
    }

    #[test]
    fn docs_are_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/joinpoints.md");
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == markdown(),
            "docs/joinpoints.md is stale: regenerate it with `{REGENERATE}`"
        );
    }

    #[test]
    fn text_for_one_kind() {
        let t = text(kind("loop"));
        assert!(t.starts_with("loop\n"));
        assert!(t.contains("is_innermost (also isInnermost)"));
        assert!(!t.contains("\nfunction\n"));
    }
}
