//! Malformed study files: each mistake is refused with the file and the
//! key it concerns, never a panic, never a half-read study.

use std::path::Path;

use weft::experiment::Study;

const VALID: &str = r#"
[study]
name = "demo"
source = "src"
build = ["make"]

[[version]]
name = "original"

[[version]]
name = "v1"
patch = "v1.patch"

[[report]]
name = "freq"
aspect = "freq_report.lara"

[[strategy]]
name = "ascv3"
kind = "weave"
aspect = "ascv3.lara"

[[strategy]]
name = "freq"
kind = "weave"
aspect = "freq.lara"
reports = { freqReport = "freq" }

[[test]]
name = "t1"
cmd = "./prog 1"

[[test]]
name = "t2"
cmd = "./prog 2"
"#;

fn parse(text: &str) -> Result<Study, String> {
    Study::parse(text, Path::new("/studies/s/study.toml")).map_err(|e| format!("{e:#}"))
}

#[test]
fn the_valid_study_parses_with_paths_beside_the_file() {
    let study = parse(VALID).unwrap();
    assert_eq!(study.versions.len(), 2);
    assert_eq!(study.strategies.len(), 2);
    assert_eq!(study.source, Path::new("/studies/s/src"));
    assert_eq!(study.training.len(), 2, "every test trains by default");
}

#[test]
fn holdout_is_a_flag_or_a_mode() {
    use weft::experiment::Holdout;
    let with = |line: &str| {
        let text = VALID.replace(
            "aspect = \"ascv3.lara\"",
            &format!("aspect = \"ascv3.lara\"\ndetector = \"invariants\"\n{line}"),
        );
        parse(&text).unwrap().strategies[0].holdout
    };
    assert_eq!(with(""), Holdout::Off);
    assert_eq!(with("holdout = false"), Holdout::Off);
    assert_eq!(with("holdout = true"), Holdout::Pairs);
    assert_eq!(with("holdout = \"pairs\""), Holdout::Pairs);
    assert_eq!(with("holdout = \"count\""), Holdout::Count);
    assert_eq!(with("holdout = \"halves\""), Holdout::Halves);
    assert_eq!(with("holdout = \"split\""), Holdout::Split);
    assert_eq!(with("holdout = \"score\""), Holdout::Score);
    assert_eq!(with("holdout = \"score_invariants\""), Holdout::ScoreInvariants);
    assert_eq!(with("holdout = \"score_known\""), Holdout::ScoreKnown);
    assert_eq!(with("holdout = \"folds\""), Holdout::Folds);
    assert_eq!(with("holdout = \"folds_score\""), Holdout::FoldsScore);
}

#[test]
fn each_mistake_names_the_file_and_its_key() {
    let cases: &[(&str, &str, &str)] = &[
        ("build = [\"make\"]", "build = []", "study.build"),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\ndetector = \"daikon\"",
            "strategy[0].detector",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\nholdout = true",
            "strategy[0].holdout",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\nholdout = \"count\"",
            "strategy[0].holdout",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\ndetector = \"invariants\"\nholdout = \"thirds\"",
            "strategy[0].holdout",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\nunseen_points = \"inner\"",
            "strategy[0].unseen_points",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\ndetector = \"invariants\"\nunseen_points = \"some\"",
            "strategy[0].unseen_points",
        ),
        (
            "patch = \"v1.patch\"",
            "source = \"/nonexistent/weft/v1.c\"",
            "version[1].source",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\n[study.test_lines]\nfile = \"/nonexistent/weft/tests.txt\"\ncmd = \"./prog {}\"",
            "study.test_lines.file",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\ndraws = 0",
            "study.draws",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\nalarm_budget = 101.0",
            "study.alarm_budget",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\nconfidence = 0.999",
            "strategy[0].confidence",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\ndetector = \"invariants\"\nconfidence = 1.0",
            "strategy[0].confidence",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\nkinds_off = [\"NonModulus\"]",
            "strategy[0].kinds_off",
        ),
        (
            "aspect = \"ascv3.lara\"",
            "aspect = \"ascv3.lara\"\ndetector = \"invariants\"\nkinds_off = [\"Modulus\", \"Modulo\"]",
            "strategy[0].kinds_off",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\ntimeout_secs = -1.0",
            "study.timeout_secs",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\npercentages = [50, 10]",
            "study.percentages",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\npercentages = [0]",
            "study.percentages",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\ntraining = [\"nothing*\"]",
            "study.training",
        ),
        (
            "build = [\"make\"]",
            "build = [\"make\"]\ntraining = [\"[\"]",
            "study.training",
        ),
        ("name = \"v1\"", "name = \"original\"", "version[1].name"),
        ("name = \"ascv3\"", "name = \"plain\"", "strategy[0].name"),
        (
            "kind = \"weave\"\naspect = \"ascv3.lara\"",
            "kind = \"tangle\"",
            "strategy[0].kind",
        ),
        (
            "kind = \"weave\"\naspect = \"ascv3.lara\"",
            "kind = \"weave\"",
            "strategy[0].aspect",
        ),
        (
            "kind = \"weave\"\naspect = \"ascv3.lara\"",
            "kind = \"patch\"",
            "strategy[0].patch",
        ),
        (
            "freqReport = \"freq\"",
            "freqReport = \"missing\"",
            "strategy[1].reports.freqReport",
        ),
        (
            "cmd = \"./prog 2\"",
            "cmd = \"./prog 2\"\ninputs = [\"../escape\"]",
            "test[1]",
        ),
        ("name = \"t2\"", "name = \"t1\"", "test[1].name"),
    ];
    for (from, to, key) in cases {
        assert!(VALID.contains(from), "{from}");
        let text = VALID.replacen(from, to, 1);
        let err = parse(&text).expect_err(key);
        assert!(err.contains("/studies/s/study.toml"), "{key}: {err}");
        assert!(err.contains(&format!("`{key}`")), "{key}: {err}");
    }
}

#[test]
fn structural_mistakes_are_toml_errors_with_a_position() {
    for text in [
        VALID.replacen("[study]", "[studdy]", 1),
        VALID.replacen("name = \"demo\"", "name = \"demo\"\ncolour = 1", 1),
        "[study\nname = 1".to_string(),
        String::from_utf8_lossy(&[0xff, 0xfe, 0x00, 0x41]).into_owned(),
        String::new(),
    ] {
        let err = parse(&text).expect_err("refused");
        assert!(err.starts_with("/studies/s/study.toml"), "{err}");
    }
    // A value outside a closed list names the choices, at its position.
    let judging = VALID.replacen(
        "build = [\"make\"]",
        "build = [\"make\"]\njudging = \"sometimes\"",
        1,
    );
    let err = parse(&judging).unwrap_err();
    assert!(
        err.contains("line 6") && err.contains("`every` or `unseen`"),
        "{err}"
    );
    let one_version = VALID.replacen("[[version]]\nname = \"v1\"\npatch = \"v1.patch\"", "", 1);
    assert!(parse(&one_version).unwrap_err().contains("`version`"));
    let no_tests: String = VALID[..VALID.find("[[test]]").unwrap()].to_string();
    assert!(parse(&no_tests).unwrap_err().contains("`test`"));
}

#[test]
fn test_lines_make_one_test_per_line_and_need_a_placeholder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tests.txt"),
        "leap 2000\n\n# a comment\ndow 2024 2 29\n",
    )
    .unwrap();
    let file = dir.path().join("study.toml");
    let study = |cmd: &str| {
        let text = VALID.replace(
            "build = [\"make\"]",
            &format!(
                "build = [\"make\"]\n[study.test_lines]\nfile = \"tests.txt\"\ncmd = '{cmd}'\nprefix = \"l\""
            ),
        );
        Study::parse(&text, &file).map_err(|e| format!("{e:#}"))
    };
    let s = study("./cal {}").unwrap();
    let lines: Vec<(&str, &str)> = s.tests[2..]
        .iter()
        .map(|t| (t.name.as_str(), t.cmd.as_str()))
        .collect();
    assert_eq!(lines, [("l1", "./cal leap 2000"), ("l4", "./cal dow 2024 2 29")]);
    let err = study("./cal").unwrap_err();
    assert!(
        err.contains("study.test_lines.cmd") && err.contains("{}"),
        "{err}"
    );
}
