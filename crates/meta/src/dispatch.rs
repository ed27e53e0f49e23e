//! Function-level sites: each revision's definitions, renamed
//! `<name>__weft_rev<n>` and made static, and under the original name a
//! dispatcher that calls the copy of the revision that runs.

use std::fmt::Write;

use super::place::Definition;
use super::site::Site;

/// The text replacing a function-level site: prototypes (so that copies
/// may call the dispatchers, as recursive code does), the copies, and one
/// dispatcher per original definition.
pub fn write(slot: usize, id: usize, site: &Site) -> String {
    let mut out = String::new();
    for d in &site.definitions {
        let _ = writeln!(out, "{};", d.signature);
    }
    out.push_str(&renamed(&site.original, &site.definitions, 0));
    for b in &site.branches {
        out.push_str(&renamed(&b.text, &b.definitions, b.revisions[0]));
    }
    for d in &site.definitions {
        let name = &site.original[d.name_at.clone()];
        let Ok(call) = &d.call else { continue };
        let args = call.params.join(", ");
        let invoke = |rev: usize| match call.returns_void {
            true => format!("{name}__weft_rev{rev}({args});\n        return;"),
            false => format!("return {name}__weft_rev{rev}({args});"),
        };
        let _ = write!(
            out,
            "{}\n{{\n    switch (weft_meta_rev({slot})) {{ /* weft site {id} */\n",
            d.signature
        );
        for b in &site.branches {
            let cases: Vec<String> = b.revisions.iter().map(|r| format!("case {r}:")).collect();
            let _ = write!(
                out,
                "    {}\n        {}\n",
                cases.join(" "),
                invoke(b.revisions[0])
            );
        }
        let _ = write!(out, "    default:\n        {}\n    }}\n}}\n", invoke(0));
    }
    out
}

/// `text` with each definition renamed for revision `rev` and made static.
fn renamed(text: &str, definitions: &[Definition], rev: usize) -> String {
    let mut out = text.to_string();
    for d in definitions.iter().rev() {
        out.insert_str(d.name_at.end, &format!("__weft_rev{rev}"));
        if !d.is_static {
            out.insert_str(d.start, "static ");
        }
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
