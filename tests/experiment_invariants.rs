//! The invariant detector in a study of the shape fault benchmarks come
//! in: examples/calendar-faults (a one-file program built by one compiler
//! command, faulty versions as whole files, tests as argument lines),
//! reduced to three faulty versions, one draw at 100% training.

use std::path::{Path, PathBuf};

mod setup_support;
mod weft_support;

/// The reduced calendar study in a new directory, with the first `tests`
/// of its tests: (the directory, its study file).
fn calendar_study(tests: usize) -> (tempfile::TempDir, PathBuf) {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/calendar-faults");
    let tmp = tempfile::tempdir().unwrap();
    let lines: Vec<&str> = TESTS.lines().take(tests).collect();
    std::fs::write(tmp.path().join("tests.txt"), lines.join("\n") + "\n").unwrap();
    let at = |p: &str| example.join(p).display().to_string();
    let study = format!(
        r#"[study]
name = "calendar-small"
source = "{cal}"
build = ['gcc $CFLAGS -o cal cal.c']
cflags = "-std=c99 -O1"
seed = 2026
draws = 1
percentages = [100]
compare_stderr = true
# At 100% the faulty versions' runs are judged by the one set learned from
# every test (with one draw, "unseen" would judge them by halves).
judging = "every"
env = {{ WEFT_TRACE_SAMPLING = "all" }}

[study.test_lines]
file = "{tests}"
cmd = '"$WEFT_BUILD/cal" {{}}'
prefix = "t"

[[version]]
name = "original"

[[version]]
name = "v2"
source = "{v2}"

[[version]]
name = "v3"
source = "{v3}"

[[version]]
name = "v10"
source = "{v10}"

[[strategy]]
name = "INV"
kind = "weave"
detector = "invariants"
aspect = "{aspect}"
"#,
        cal = at("cal.c"),
        tests = tmp.path().join("tests.txt").display(),
        v2 = at("versions/v2/cal.c"),
        v3 = at("versions/v3/cal.c"),
        v10 = at("versions/v10/cal.c"),
        aspect = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("aspects/invariants.lara")
            .display(),
    );
    let file = tmp.path().join("study.toml");
    std::fs::write(&file, study).unwrap();
    (tmp, file)
}

const TESTS: &str = include_str!("../examples/calendar-faults/tests.txt");

#[test]
fn invariants_beat_the_all_pass_baseline_on_the_calendar_study() {
    let (tmp, file) = calendar_study(usize::MAX);
    weft_support::experiment(&file);

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("report/report.json")).unwrap())
            .unwrap();
    let results = &report["results"];
    assert_eq!(results["oracle"]["tests"].as_array().unwrap().len(), 270);
    let cells: Vec<bool> = results["oracle"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|c| c.as_bool().unwrap()))
        .collect();
    let failing = cells.iter().filter(|&&pass| !pass).count() as u64;
    assert!(failing > 0, "the faulty versions fail some tests");
    let overall = &results["evaluations"][0]["points"][0]["overall"];
    let count = |k: &str| overall[k].as_u64().unwrap();
    let (tp, fp, tn, false_alarms) = (count("tp"), count("fp"), count("tn"), count("fn"));
    let total = tp + fp + tn + false_alarms;
    assert_eq!(total, cells.len() as u64);
    // Failing runs flagged, few passing runs flagged, and more right
    // answers than answering "pass" everywhere.
    assert!(tn > 0, "no failing run was flagged: {overall}");
    assert!(
        false_alarms * 100 <= tp + false_alarms,
        "false alarms on over 1% of passing runs: {overall}"
    );
    assert!(
        tp + tn > total - failing,
        "not above the all-pass baseline: {overall}"
    );
    let md = std::fs::read_to_string(tmp.path().join("report/report.md")).unwrap();
    assert!(md.contains("INV: violated invariants by kind"), "{md}");
}

/// The scratch areas (`scratch-*`) in a study's work directory.
fn scratch_areas(work: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(work)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("scratch-"))
        .collect();
    found.sort();
    found
}

/// Starts the study and stops it with SIGTERM once its scoring has
/// started (it said it loaded the plain builds' runs); false when the
/// study ended before the signal (its runs are stored all the same).
fn terminate_while_scoring(file: &Path) -> bool {
    use std::io::BufRead as _;
    let mut child = weft_support::command()
        .args(["experiment", "-j", "2"])
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let scoring = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|line| line.starts_with("experiment (loading runs of plain)"));
    if scoring {
        // SAFETY: kill with the id of a child not yet waited for.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    }
    // Read to the end: a closed pipe would stop it with SIGPIPE instead.
    lines.for_each(drop);
    let status = child.wait().unwrap();
    if status.success() {
        return false;
    }
    assert!(scoring, "the study failed: {status}");
    assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{status}");
    true
}

#[test]
fn a_study_stopped_while_scoring_leaves_no_scratch_and_resumes_to_the_same_tables() {
    let (dir, file) = calendar_study(60);
    let work = dir.path().join("work");
    // Its runs are stored before its scoring starts: a study that ended
    // before the signal is scored again from them until one is caught.
    let caught = (0..10).any(|_| terminate_while_scoring(&file));
    assert!(caught, "no scoring was caught");
    assert_eq!(
        scratch_areas(&work),
        Vec::<PathBuf>::new(),
        "the stopped study left its scratch"
    );

    // A stale area (its owner killed outright) goes at the next start; a
    // live one (its lock held) stays.
    let stale = work.join("scratch-stale");
    std::fs::create_dir_all(stale.join("0/cwd")).unwrap();
    std::fs::write(stale.join("lock"), "").unwrap();
    let live = work.join("scratch-live");
    std::fs::create_dir(&live).unwrap();
    let lock = std::fs::File::create(live.join("lock")).unwrap();
    // SAFETY: flock on a descriptor `lock` keeps open.
    assert_eq!(
        unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) },
        0
    );
    weft_support::experiment(&file);
    assert_eq!(scratch_areas(&work), vec![live]);

    let (whole, whole_file) = calendar_study(60);
    weft_support::experiment(&whole_file);
    let compared = setup_support::assert_same_report_tables(dir.path(), whole.path());
    assert!(compared >= 5, "{compared} files compared");
}

/// Invariant strategies of every hold-out, unseen-points and confidence
/// setting, all woven with the same aspect and arguments (one arm).
const JUDGES: [(&str, &str); 13] = [
    ("INV", ""),
    ("INV_h", "holdout = true"),
    ("INV_t", "holdout = \"count\""),
    ("INV_b", "holdout = \"halves\""),
    ("INV_hu", "holdout = true\nunseen_points = \"all\""),
    ("INV_s", "holdout = \"split\""),
    ("INV_w", "holdout = \"score\""),
    ("INV_wi", "holdout = \"score_invariants\""),
    ("INV_wk", "holdout = \"score_known\""),
    ("INV_f", "holdout = \"folds\""),
    ("INV_fs", "holdout = \"folds_score\""),
    ("INV_c", "confidence = 0.99999"),
    ("INV_k", "kinds_off = []\nholdout = \"count\""),
];

/// The calendar study of `tests` tests with two draws at 50 and 100% and
/// the strategies `judges` in place of its one, reporting into `out`.
fn judged_study(dir: &Path, tests: usize, judges: &[(&str, &str)], out: &str) -> PathBuf {
    let (template, file) = calendar_study(tests);
    let text = std::fs::read_to_string(&file).unwrap();
    drop(template);
    let (head, inv) = text.split_once("[[strategy]]").unwrap();
    let aspect = inv.lines().find(|l| l.starts_with("aspect")).unwrap();
    let mut study = head
        .replace("draws = 1", "draws = 2")
        .replace("percentages = [100]", "percentages = [50, 100]")
        .replace(
            &file.parent().unwrap().display().to_string(),
            &dir.display().to_string(),
        )
        .replace("[study]\n", &format!("[study]\nout_dir = \"{out}\"\n"));
    for (name, options) in judges {
        study += &format!(
            "[[strategy]]\nname = \"{name}\"\nkind = \"weave\"\ndetector = \"invariants\"\n{options}\n{aspect}\n\n"
        );
    }
    std::fs::write(
        dir.join("tests.txt"),
        TESTS.lines().take(tests).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let file = dir.join(format!("{out}.toml"));
    std::fs::write(&file, study).unwrap();
    file
}

/// A report's evaluations and kind breakdowns, by strategy.
fn tables_by_strategy(
    report: &Path,
) -> std::collections::BTreeMap<String, (serde_json::Value, serde_json::Value)> {
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    let results = &report["results"];
    let breakdowns = results["kind_breakdowns"].as_array().unwrap();
    results["evaluations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let name = e["strategy"].as_str().unwrap().to_string();
            let kinds = breakdowns
                .iter()
                .find(|b| b["strategy"] == e["strategy"])
                .unwrap();
            (name, (e.clone(), kinds.clone()))
        })
        .collect()
}

#[test]
fn strategies_scored_together_from_one_reading_of_each_trace_score_as_each_alone() {
    let dir = tempfile::tempdir().unwrap();
    let together = judged_study(dir.path(), 30, &JUDGES, "together");
    weft_support::experiment(&together);
    let tables = tables_by_strategy(&dir.path().join("together/report.json"));
    assert_eq!(tables.len(), JUDGES.len());
    let mut differ = std::collections::BTreeSet::new();
    for judge in JUDGES {
        // The same runs (one arm, the same work directory), scored alone.
        let alone = judged_study(dir.path(), 30, &[judge], judge.0);
        weft_support::experiment(&alone);
        let single = tables_by_strategy(&dir.path().join(judge.0).join("report.json"));
        assert_eq!(
            single[judge.0], tables[judge.0],
            "{} scored alone differs",
            judge.0
        );
        differ.insert(tables[judge.0].0["points"].to_string());
    }
    // The settings judge differently, so sharing could have mixed them up.
    assert!(differ.len() >= 3, "only {} distinct tables", differ.len());
}

#[test]
fn judging_unseen_judges_each_faulty_run_only_by_the_sets_that_did_not_learn_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let file = judged_study(dir.path(), 30, &JUDGES, "unseen");
    let text = std::fs::read_to_string(&file).unwrap();
    let unseen = text.replace("judging = \"every\"", "judging = \"unseen\"");
    assert_ne!(text, unseen);
    std::fs::write(&file, unseen).unwrap();
    // Every hold-out mode finds the findings of the sets it reads.
    weft_support::experiment(&file);
    let tables = tables_by_strategy(&dir.path().join("unseen/report.json"));
    assert_eq!(tables.len(), JUDGES.len());
    let (versions, tests) = (3, 30);
    for (name, (evaluation, _)) in &tables {
        let points = evaluation["points"].as_array().unwrap();
        let total = |p: &serde_json::Value| -> u64 {
            ["tp", "fp", "tn", "fn"]
                .iter()
                .map(|k| p["overall"][k].as_u64().unwrap())
                .sum()
        };
        // 50%: each of the two draws judges the tests it did not learn.
        let half = &points[0];
        let unseen = tests - half["training_runs"].as_u64().unwrap();
        assert_eq!(total(half), versions * 2 * unseen, "{name} at 50%");
        // 100%: each run by the one fold that held out its test.
        assert_eq!(total(&points[1]), versions * tests, "{name} at 100%");
        assert_eq!(points[1]["sets"], 2, "{name}");
        let original = &points[1]["original"];
        assert_eq!(
            original["tp"].as_u64().unwrap() + original["fn"].as_u64().unwrap(),
            tests
        );
    }
}

/// The study database's runs with their arm's name as `a.name` and their
/// version's as `v.name`.
const NAMED_RUNS: &str = "runs JOIN names a ON a.id = runs.arm JOIN names v ON v.id = runs.version";

/// Runs of faulty versions stored by the invariant arm (`INV`): those
/// checked as they finished.
fn checked_runs(db: &Path) -> usize {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let Ok(conn) = rusqlite::Connection::open_with_flags(db, flags) else {
        return 0;
    };
    conn.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    conn.query_row(
        &format!("SELECT count(*) FROM {NAMED_RUNS} WHERE a.name = 'INV' AND v.name <> 'original'"),
        [],
        |r| r.get::<_, i64>(0),
    )
    .map_or(0, |n| n as usize)
}

/// The largest blob a faulty version's run of `INV` keeps, and the
/// smallest an original's run keeps (its packed traces).
fn kept_sizes(db: &Path) -> (usize, usize) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let size = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as usize;
    let of = format!("FROM {NAMED_RUNS} JOIN blobs ON blobs.id = runs.records WHERE a.name = 'INV'");
    (
        size(&format!("SELECT max(length(data)) {of} AND v.name <> 'original'")),
        size(&format!("SELECT min(length(data)) {of} AND v.name = 'original'")),
    )
}

#[test]
fn a_study_killed_while_checking_runs_resumes_to_the_same_tables() {
    let (dir, whole) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = judged_study(dir.path(), 60, &JUDGES, "report");
    // Each run takes a while, so that the 180 checked runs span several of
    // the store's one-second commits however fast the machine checks them.
    let study = std::fs::read_to_string(&file).unwrap();
    let slowed = study.replace(
        r#"cmd = '"$WEFT_BUILD/cal" {}'"#,
        r#"cmd = 'sleep 0.05; "$WEFT_BUILD/cal" {}'"#,
    );
    assert_ne!(study, slowed, "the test command was not slowed");
    std::fs::write(&file, slowed).unwrap();
    let db = dir.path().join("work/study.sqlite");
    let mut child = weft_support::command()
        .args(["experiment", "-j", "2"])
        .arg(&file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while checked_runs(&db) < 5 {
        assert!(start.elapsed().as_secs() < 300, "no checked run was committed");
        assert!(child.try_wait().unwrap().is_none(), "the study ended first");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = checked_runs(&db);
    assert!(killed < 3 * 60, "the study was not killed mid-run: {killed}");
    // A checked run keeps what it violated, not its traces.
    let (checked, traced) = kept_sizes(&db);
    assert!(
        checked < traced,
        "a checked run keeps {checked} bytes, a traced one {traced}"
    );

    weft_support::experiment(&file);
    assert_scores_as_executed_at_once(dir.path(), whole.path(), 60);
    // The trace reach, from what each run stored as it was checked, is
    // the same too.
    let reach = |study: &Path| experiment_with(&["--reach"], study);
    let whole_file = whole.path().join("report.toml");
    assert_eq!(reach(&file), reach(&whole_file));
    let printed = reach(&file);
    assert!(printed.contains("failing runs whose traces differ"), "{printed}");
}

/// Executes the study of `tests` tests and every judge in the directory
/// `alone`, locally and never stopped, and checks that the report in
/// `dir` has the same tables and scores.
fn assert_scores_as_executed_at_once(dir: &Path, alone: &Path, tests: usize) {
    weft_support::experiment(&judged_study(alone, tests, &JUDGES, "report"));
    let compared = setup_support::assert_same_report_tables(dir, alone);
    assert!(compared >= 5, "{compared} files compared");
    assert_eq!(
        tables_by_strategy(&dir.join("report/report.json")),
        tables_by_strategy(&alone.join("report/report.json"))
    );
}

/// `weft experiment ARGS… FILE`, which must succeed: its standard output.
fn experiment_with(args: &[&str], file: &Path) -> String {
    let mut words = vec!["experiment"];
    words.extend(args);
    words.push(file.to_str().unwrap());
    weft_support::weft_exits(0, words).0
}

#[test]
fn a_planned_study_learns_in_a_step_of_its_own_and_scores_as_a_local_one() {
    let (planned, local) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = judged_study(planned.path(), 30, &JUDGES, "report");
    let plan_dir = planned.path().join("plan");
    let plan = experiment_with(&["--plan", &plan_dir.display().to_string()], &file);
    let phases: Vec<&str> = plan.lines().collect();
    // Builds, the runs the learning reads (and the others), learning, the
    // faulty versions' invariant runs.
    assert_eq!(phases.len(), 4, "{plan}");
    let learn = std::fs::read_to_string(phases[2]).unwrap();
    assert_eq!(learn.lines().count(), 1, "{learn}");
    assert!(learn.contains("'--step' 'learn'"), "{learn}");
    for phase in &phases {
        for line in std::fs::read_to_string(phase).unwrap().lines() {
            let status = std::process::Command::new("sh")
                .arg("-c")
                .arg(line)
                .status()
                .unwrap();
            assert!(status.success(), "{line}");
        }
    }
    experiment_with(&["--collect"], &file);
    assert_scores_as_executed_at_once(planned.path(), local.path(), 30);
}

#[test]
fn the_reach_counts_failing_runs_whose_traces_differ_and_a_copy_of_the_original_differs_nowhere() {
    let (tmp, file) = calendar_study(60);
    let study = std::fs::read_to_string(&file).unwrap();
    let cal = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/calendar-faults/cal.c");
    let copy = format!("[[version]]\nname = \"copy\"\nsource = \"{}\"\n\n", cal.display());
    std::fs::write(&file, study.replace("[[strategy]]", &(copy + "[[strategy]]"))).unwrap();
    weft_support::experiment(&file);

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("report/report.json")).unwrap())
            .unwrap();
    let reach = &report["results"]["trace_reach"][0];
    assert_eq!(reach["strategies"], serde_json::json!(["INV"]));
    let versions = reach["versions"].as_array().unwrap();
    let count = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    let names: Vec<&str> = versions.iter().map(|v| v["version"].as_str().unwrap()).collect();
    assert_eq!(names, ["v2", "v3", "v10", "copy"]);
    // Another build of the original's source, run on every test: its
    // traces are the original's (no address, no nonce tells them apart).
    let same = &versions[3];
    assert_eq!(
        (count(same, "failing"), count(same, "passing_differ")),
        (0, 0),
        "{same}"
    );
    let mut reachable = 0;
    for v in &versions[..3] {
        let (failing, differ, novel) = (
            count(v, "failing"),
            count(v, "failing_differ"),
            count(v, "failing_novel"),
        );
        assert!(differ + count(v, "failing_abnormal") <= failing, "{v}");
        assert!(
            novel <= differ,
            "a value no original run has makes the run differ: {v}"
        );
        reachable += usize::from(differ > 0);
    }
    assert!(reachable > 0, "no faulty version's traces differ: {reach}");
    assert_eq!(count(reach, "original_runs"), 60, "{reach}");
    assert!(count(reach, "original_novel") <= 60, "{reach}");

    // `--reach` alone prints the report's tables, scoring nothing.
    let (printed, _) = weft_support::weft_exits(0, ["experiment", file.to_str().unwrap(), "--reach"]);
    let md = std::fs::read_to_string(tmp.path().join("report/report.md")).unwrap();
    let table = printed.trim();
    assert!(
        table.starts_with("### INV: failing runs whose traces differ"),
        "{printed}"
    );
    assert!(
        md.contains(table),
        "report.md lacks the printed table:\n{printed}\n{md}"
    );
}
