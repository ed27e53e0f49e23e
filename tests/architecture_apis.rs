//! The curated crates keep their public API deliberate: a module of
//! weft-study, weft-monitor, weft-weave, weft-triage or weft-loops is
//! private unless its crate doc names it (as a [`module`] link) as a
//! sub-API, and every item the crate root re-exports is named in the crate
//! doc too, so the doc stays the list of what the crate offers.

use std::path::Path;

const CURATED: [&str; 5] = ["study", "monitor", "weave", "triage", "loops"];

/// The crate doc (`//!` lines) and the code of `crates/<name>/src/lib.rs`.
fn lib_rs(name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates")
        .join(name)
        .join("src/lib.rs");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (doc, code): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with("//!"));
    (doc.join("\n"), code.join("\n"))
}

/// The names a `pub use` line (or block) brings in, `as` renames applied.
fn re_exported(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for stmt in code.split(';').map(str::trim) {
        let Some(path) = stmt.strip_prefix("pub use ") else {
            continue;
        };
        let list = match path.find('{') {
            Some(open) => &path[open + 1..path.rfind('}').expect("a closed use list")],
            None => path.rsplit("::").next().unwrap_or(path),
        };
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let name = item.rsplit(" as ").next().unwrap_or(item);
            names.push(name.rsplit("::").next().unwrap_or(name).to_string());
        }
    }
    names
}

#[test]
fn public_modules_are_documented_sub_apis() {
    for name in CURATED {
        let (doc, code) = lib_rs(name);
        for line in code.lines() {
            if let Some(module) = line.strip_prefix("pub mod ").and_then(|m| m.strip_suffix(';')) {
                assert!(
                    doc.contains(&format!("[`{module}`]")),
                    "weft-{name}: `pub mod {module}` is not named as a sub-API in the crate doc"
                );
            }
        }
    }
}

#[test]
fn re_exports_are_listed_in_the_crate_doc() {
    for name in CURATED {
        let (doc, code) = lib_rs(name);
        let names = re_exported(&code);
        assert!(!names.is_empty(), "weft-{name}: no re-exports found");
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| !doc.contains(&format!("`{n}`")))
            .collect();
        assert!(
            missing.is_empty(),
            "weft-{name}: re-exported but not in the crate doc: {missing:?}"
        );
    }
}
