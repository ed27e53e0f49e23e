//! ARCHITECTURE.md's layer table stays true: each row's folder and "depends
//! on" cell must be what `cargo metadata` says of that crate, and every
//! crate may depend only on crates in rows above its own (the table is
//! lowest first). A new crate or dependency therefore fails this test until
//! the table says it. And no library crate finds the program that hosts
//! it: only the CLI may say which executable is weft.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// One row of the layer table: crate name, folder, and its weft dependencies
/// as short names (`text` for `weft-text`), or `None` for "all".
struct Row {
    name: String,
    folder: String,
    depends_on: Option<BTreeSet<String>>,
}

fn unquote(cell: &str) -> String {
    cell.trim().trim_matches('`').to_string()
}

fn layer_table() -> Vec<Row> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md");
    let rows: Vec<Row> = text
        .lines()
        .filter(|line| line.starts_with("| `weft"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            assert!(cells.len() >= 4, "a layer row has four cells: {line}");
            let deps = cells[cells.len() - 1].trim();
            let depends_on = match deps {
                "all" => None,
                d if d.starts_with("nothing") => Some(BTreeSet::new()),
                d => Some(d.split(',').map(|s| s.trim().to_string()).collect()),
            };
            Row {
                name: unquote(cells[0]),
                folder: unquote(cells[1]),
                depends_on,
            }
        })
        .collect();
    assert!(
        rows.len() >= 10,
        "the layer table was not found in ARCHITECTURE.md"
    );
    rows
}

/// Every workspace crate's folder (relative to the workspace) and its normal
/// (not dev or build) dependencies on other weft crates, from `cargo metadata`.
fn cargo_layers() -> BTreeMap<String, (String, BTreeSet<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata JSON");
    let mut layers = BTreeMap::new();
    for package in meta["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().unwrap().to_string();
        let manifest = Path::new(package["manifest_path"].as_str().unwrap());
        let folder = manifest.parent().unwrap().strip_prefix(root).unwrap();
        let folder = if folder.as_os_str().is_empty() {
            "src/".to_string()
        } else {
            folder.display().to_string()
        };
        let deps = package["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["kind"].is_null())
            .filter_map(|d| d["name"].as_str()?.strip_prefix("weft-").map(str::to_string))
            .collect();
        layers.insert(name, (folder, deps));
    }
    layers
}

#[test]
fn layer_table_matches_cargo_metadata() {
    let table = layer_table();
    let cargo = cargo_layers();
    let listed: BTreeSet<&String> = table.iter().map(|r| &r.name).collect();
    let crates: BTreeSet<&String> = cargo.keys().collect();
    assert_eq!(
        listed, crates,
        "ARCHITECTURE.md's layer table lists other crates than the workspace has"
    );
    let mut above: BTreeSet<String> = BTreeSet::new();
    for row in &table {
        let (folder, deps) = &cargo[&row.name];
        assert_eq!(
            &row.folder, folder,
            "{}: the table's folder is not the crate's",
            row.name
        );
        match &row.depends_on {
            Some(said) => assert_eq!(
                said, deps,
                "{}: the table's \"depends on\" is not Cargo.toml's",
                row.name
            ),
            None => assert_eq!(
                deps, &above,
                "{}: \"all\" must mean every crate above it",
                row.name
            ),
        }
        let upward: Vec<&String> = deps.iter().filter(|d| !above.contains(*d)).collect();
        assert!(
            upward.is_empty(),
            "{} depends on {upward:?}, which the table puts below it",
            row.name
        );
        above.insert(row.name.strip_prefix("weft-").unwrap_or(&row.name).to_string());
    }
}

/// `std::env::current_exe` in a library names whatever program hosts it (a
/// test binary, another tool), not weft: the CLI passes weft's path down.
#[test]
fn no_library_crate_locates_its_own_executable() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let (mut scanned, mut callers) = (0, Vec::new());
    for entry in walkdir::WalkDir::new(&crates) {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "rs")
            && !path.components().any(|c| c.as_os_str() == "target")
        {
            let text = std::fs::read_to_string(path).unwrap();
            scanned += 1;
            if text.contains("current_exe") {
                callers.push(path.strip_prefix(&crates).unwrap().display().to_string());
            }
        }
    }
    assert!(scanned > 50, "only {scanned} source files found under crates/");
    assert!(
        callers.is_empty(),
        "library crates calling current_exe: {callers:?}"
    );
}
