//! The example aspects under examples/ pass `weft check`.

#[test]
fn example_aspects_check_clean() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let aspect = entry.path().join("aspect.lara");
        if !aspect.exists() {
            continue;
        }
        let module = weft::aspect::load(&aspect).unwrap_or_else(|e| panic!("{e}"));
        let diagnostics = weft::engine::check(&module);
        assert!(!diagnostics.has_errors(), "{}:\n{diagnostics}", aspect.display());
        checked += 1;
    }
    assert_eq!(checked, 4);
}
