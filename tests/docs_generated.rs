//! Docs generated from the code stay generated: docs/joinpoints.md is
//! exactly what `weft joinpoints --markdown` prints, so a new join point or
//! attribute fails here until the reference is regenerated with
//! `weft joinpoints --markdown > docs/joinpoints.md`.

mod weft_support;

#[test]
fn the_join_point_reference_is_the_catalogue() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = weft_support::command()
        .args(["joinpoints", "--markdown"])
        .output()
        .expect("weft runs");
    assert!(out.status.success());
    let doc = std::fs::read_to_string(root.join("docs/joinpoints.md")).unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout) == doc,
        "docs/joinpoints.md is stale: run `weft joinpoints --markdown > docs/joinpoints.md`"
    );
}
