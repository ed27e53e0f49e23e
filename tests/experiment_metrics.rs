//! Metrics, tie rules, prediction and tables on hand-computed matrices.

use weft::experiment::{
    Confusion, Evaluation, FaultMatrix, Judging, Observation, OriginalRuns, Schedule, best_percentage,
    build_tables, detection, evaluate, fmt_percent, percentage_of_ones, predict, score, summary,
    version_order,
};
use weft::ranges::learn::Run;
use weft::ranges::{Bounds, Key, Kind, Range, RangeSet, ValueType};

/// A set holding `main`'s write of `var` over `[lo, hi]`.
fn set(var: &str, lo: i64, hi: i64) -> RangeSet {
    let mut s = RangeSet::default();
    let key = Key {
        function: "main".into(),
        variable: var.into(),
        kind: Kind::Write,
        file: "a.c".into(),
        value_type: ValueType::I64,
    };
    s.add(
        key,
        Range {
            count: 1,
            bounds: Some(Bounds::I64(lo, hi)),
            nan: false,
        },
    );
    s
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn confusion_counts_each_cell_kind() {
    let oracle = [true, true, false, false, true, false];
    let predicted = [true, false, true, false, true, true];
    let c = Confusion::compare(&oracle, &predicted);
    assert_eq!(
        c,
        Confusion {
            tp: 2,
            fp: 2,
            tn: 1,
            fn_: 1
        }
    );
    assert_eq!(c.total(), 6);
    assert!(close(c.accuracy(), 50.0));
    assert!(close(c.ppv(), 50.0)); // 2 / (2 + 2)
    assert!(close(c.npv(), 50.0)); // 1 / (1 + 1)
    assert!(close(c.tpr(), 200.0 / 3.0)); // 2 / (2 + 1)
    assert!(close(c.tnr(), 100.0 / 3.0)); // 1 / (2 + 1)
    assert!(close(c.false_positive_share(), 100.0 / 3.0));
    assert!(close(c.false_negative_share(), 100.0 / 6.0));
}

#[test]
fn undefined_ratios_print_as_dash() {
    // Every prediction positive: NPV is 0/0, as in Table 4.13.
    let c = Confusion::compare(&[true, false], &[true, true]);
    assert_eq!(c.npv(), None);
    assert_eq!(fmt_percent(c.npv()), "-");
    assert_eq!(fmt_percent(c.ppv()), "50.00");
    // All oracle cells pass: TNR is 0/0.
    let c = Confusion::compare(&[true, true], &[true, false]);
    assert_eq!(c.tnr(), None);
    assert_eq!(Confusion::default().accuracy(), None);
    assert_eq!(percentage_of_ones(&[]), None);
    assert!(close(percentage_of_ones(&[true, false, true, true]), 75.0));
}

#[test]
fn best_percentage_prefers_smallest_on_ties() {
    let pts = [
        (5, Some(60.0)),
        (10, Some(65.0)),
        (90, Some(65.0)),
        (100, Some(65.0)),
    ];
    assert_eq!(best_percentage(&pts), Some((65.0, 10)));
    let pts = [(100, Some(70.0)), (5, Some(70.0))];
    assert_eq!(best_percentage(&pts), Some((70.0, 5)));
    assert_eq!(best_percentage(&[(5, None)]), None);
    assert_eq!(best_percentage(&[(5, None), (10, Some(1.0))]), Some((1.0, 10)));
}

#[test]
fn prediction_checks_containment_and_unseen_variables() {
    let learned = set("a", 0, 10);
    let inside = Observation::Ranges(set("a", 1, 10));
    let outside = Observation::Ranges(set("a", -1, 3));
    let unseen = Observation::Ranges(set("b", 0, 0));
    assert!(predict(&learned, &inside));
    assert!(!predict(&learned, &outside));
    assert!(!predict(&learned, &unseen));
    assert!(!predict(&learned, &Observation::Abnormal));
    assert!(predict(&learned, &Observation::Ranges(RangeSet::default())));
}

/// Two faulty versions, two tests; `observed` holds the original's runs
/// (row 0), then v1's and v2's; the original's two runs train.
fn tiny() -> (FaultMatrix, Vec<Run>, Vec<Vec<Observation>>) {
    let oracle = FaultMatrix {
        versions: vec!["v1".into(), "v2".into()],
        tests: vec!["t1".into(), "t2".into()],
        cells: vec![vec![true, false], vec![true, true]],
    };
    let run = |name: &str, hi| Run {
        name: name.into(),
        set: set("x", 0, hi),
    };
    let training = vec![run("t1", 1), run("t2", 5)];
    let obs = |lo, hi| Observation::Ranges(set("x", lo, hi));
    // v1/t2 leaves every learnable range; v1/t1 needs the second training run.
    let observed = vec![
        vec![obs(0, 1), obs(0, 5)],
        vec![obs(0, 4), obs(0, 9)],
        vec![obs(0, 1), Observation::Abnormal],
    ];
    (oracle, training, observed)
}

fn schedule(percentages: &[u32], draws: u32, seed: u64) -> Schedule {
    Schedule {
        percentages: percentages.to_vec(),
        draws,
        seed,
        judging: Judging::Every,
    }
}

fn tiny_eval(name: &str, percentages: &[u32], draws: u32, seed: u64) -> Evaluation {
    judged_eval(name, percentages, draws, seed, Judging::Every)
}

fn judged_eval(name: &str, percentages: &[u32], draws: u32, seed: u64, judging: Judging) -> Evaluation {
    let (oracle, training, observed) = tiny();
    let schedule = Schedule {
        judging,
        ..schedule(percentages, draws, seed)
    };
    evaluate(name, &oracle, &training, &[0, 1], &observed, &schedule)
}

#[test]
fn evaluation_matches_hand_computation() {
    let e = tiny_eval("S", &[50, 100], 1, 3);
    let full = &e.points[1];
    // At 100% the faulty versions' runs are judged by the whole set.
    assert_eq!((e.points[0].training_runs, full.training_runs), (1, 2));
    assert_eq!((e.points[0].sets, full.sets), (1, 1));
    // v1: t1 pass/pass (tp), t2 fail/fail (tn); v2: t1 tp, t2 predicted fail but passes (fn).
    assert_eq!(
        full.per_version[0],
        Confusion {
            tp: 1,
            fp: 0,
            tn: 1,
            fn_: 0
        }
    );
    assert_eq!(
        full.per_version[1],
        Confusion {
            tp: 1,
            fp: 0,
            tn: 0,
            fn_: 1
        }
    );
    assert_eq!(
        full.overall,
        Confusion {
            tp: 2,
            fp: 0,
            tn: 1,
            fn_: 1
        }
    );
    assert_eq!(full.pass_draws, vec![vec![1, 0], vec![1, 0]]);
    assert_eq!(e, tiny_eval("S", &[50, 100], 1, 3));
}

#[test]
fn the_originals_unseen_runs_are_judged_by_what_training_did_not_see() {
    // At 100% by 2-fold (one run per fold): t1 ([0,1]) judged by t2's
    // [0,5] passes, t2 judged by t1's [0,1] is flagged.
    for seed in 0..8 {
        let e = tiny_eval("S", &[50, 100], 1, seed);
        assert_eq!(
            e.points[1].original,
            OriginalRuns { tp: 1, fn_: 1 },
            "seed {seed}"
        );
        // At 50% one run trains; the other is unseen: t1 passes against
        // t2's ranges, t2 is flagged against t1's.
        let sets = schedule(&[50, 100], 1, seed).sets(2);
        let trained = &sets[0].runs;
        let expected = if trained == &[1] {
            OriginalRuns { tp: 1, fn_: 0 }
        } else {
            OriginalRuns { tp: 0, fn_: 1 }
        };
        assert_eq!(e.points[0].original, expected, "seed {seed}");
    }
    let e = tiny_eval("S", &[100], 1, 3);
    assert!(close(e.points[0].original.alarm_rate(), 50.0));
    let json = serde_json::to_value(&e.points[0]).unwrap();
    assert_eq!(json["original"], serde_json::json!({"tp": 1, "fn": 1}));
}

#[test]
fn judging_unseen_a_faulty_run_is_judged_only_by_sets_that_did_not_train_on_its_test() {
    let judged = |tp, tn, fn_| Confusion { tp, fp: 0, tn, fn_ };
    // At 100% by 2-fold each test's runs are judged by the fold that
    // learned the other: the same counts as the whole set's here (v1's t1
    // [0,4] fits t2's [0,5]), but each fold learned one run.
    let e = judged_eval("S", &[100], 1, 3, Judging::Unseen);
    let full = &e.points[0];
    assert_eq!((full.training_runs, full.sets), (1, 2));
    assert_eq!(full.per_version, [judged(1, 1, 0), judged(1, 0, 1)]);
    // Of the two folds, one flagged each t2 run; the fold that learned t2
    // counts as not flagging it.
    assert_eq!(full.pass_draws, vec![vec![2, 1], vec![2, 1]]);
    for seed in 0..8 {
        let e = judged_eval("S", &[50], 1, seed, Judging::Unseen);
        let point = &e.points[0];
        // Training run i is of test i: the draw learned one test.
        let trained = schedule(&[50], 1, seed).sets(2)[0].runs.clone();
        assert_eq!(trained.len(), 1);
        let (seen, unseen) = (trained[0], 1 - trained[0]);
        for v in 0..2 {
            assert_eq!(point.per_version[v].total(), 1, "seed {seed}: one run judged");
            assert_eq!(
                point.pass_draws[v][seen], 1,
                "seed {seed}: not judged, not flagged"
            );
        }
        if unseen == 1 {
            // t2 against t1's [0,1]: v1's [0,9] flagged (fails), v2's
            // abnormal run flagged (passes).
            assert_eq!(
                point.per_version,
                [judged(0, 1, 0), judged(0, 0, 1)],
                "seed {seed}"
            );
        } else {
            // t1 against t2's [0,5]: v1's [0,4] and v2's [0,1] pass.
            assert_eq!(
                point.per_version,
                [judged(1, 0, 0), judged(1, 0, 0)],
                "seed {seed}"
            );
        }
    }
}

#[test]
fn folds_at_100_percent_split_the_training_runs() {
    for (n, draws) in [(10, 5), (7, 3), (3, 1), (1, 4)] {
        let sets = schedule(&[100], draws, 11).sets(n);
        let folds: Vec<_> = sets.iter().filter(|s| s.held_out.is_some()).collect();
        assert_eq!(folds.len(), draws.max(2) as usize);
        let mut all: Vec<usize> = folds.iter().flat_map(|s| s.held_out.clone().unwrap()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..n).collect::<Vec<_>>(), "every run held out once");
        for f in &folds {
            let out = f.held_out.as_ref().unwrap();
            assert_eq!(f.runs.len() + out.len(), n);
            assert!(f.runs.iter().all(|r| !out.contains(r)));
            assert!(out.len() >= n / folds.len() && out.len() <= n.div_ceil(folds.len()));
        }
        // At 100% one whole set besides the folds; judging unseen, none.
        let whole: Vec<_> = sets.iter().filter(|s| s.held_out.is_none()).collect();
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0].runs, (0..n).collect::<Vec<_>>());
        let unseen = Schedule {
            judging: Judging::Unseen,
            ..schedule(&[100], draws, 11)
        };
        assert_eq!(unseen.sets(n).len(), folds.len());
    }
    // Draws only at percentages below 100.
    assert!(
        schedule(&[50], 3, 1)
            .sets(10)
            .iter()
            .all(|s| s.held_out.is_none())
    );
}

/// A detector that flags nothing, and one that flags every run but v2/t1.
fn silent_and_loud(oracle: &FaultMatrix) -> [Evaluation; 2] {
    let s = schedule(&[50, 100], 2, 1);
    [
        score("SILENT", oracle, &[0, 1], &s, |_, _, _| true),
        score("LOUD", oracle, &[0, 1], &s, |_, row, t| row == 2 && t == 0),
    ]
}

#[test]
fn detection_counts_versions_within_the_alarm_budget() {
    let (oracle, ..) = tiny();
    let [silent, loud] = silent_and_loud(&oracle);
    let ranges = tiny_eval("RANGES", &[50, 100], 2, 1);
    // LOUD flags v1/t2 (detects v1) and alarms on every unseen run of the
    // original: within a 100% budget only.
    assert_eq!(detection::versions_detected(&loud.points[1]), 1);
    assert!(close(loud.points[1].original.alarm_rate(), 100.0));
    assert!(detection::best_within_budget(&loud, 99.0).is_none());
    assert_eq!(
        detection::best_within_budget(&loud, 100.0).map(|p| p.percentage),
        Some(50)
    );
    // RANGES detects v1 at both percentages, at 100% with alarms on half
    // the original's runs; the point with fewer alarms (on a tie, the
    // smaller percentage) is chosen.
    assert!(close(ranges.points[1].original.alarm_rate(), 50.0));
    assert!(ranges.points.iter().all(|p| detection::versions_detected(p) == 1));
    let fewer = if ranges.points[0].original.alarm_rate() <= Some(50.0) {
        50
    } else {
        100
    };
    assert_eq!(
        detection::best_within_budget(&ranges, 50.0).map(|p| p.percentage),
        Some(fewer)
    );
    assert!(detection::best_within_budget(&ranges, 0.0).is_none_or(|p| p.percentage == 50));
    // SILENT detects nothing: never best, ranked last, even with every
    // detector over budget.
    let evals = [silent, loud, ranges];
    let names = |b| -> Vec<String> {
        detection::ranked(&evals, b)
            .iter()
            .map(|e| e.strategy.clone())
            .collect()
    };
    assert_eq!(names(100.0), ["RANGES", "LOUD", "SILENT"]);
    assert_eq!(names(50.0), ["RANGES", "LOUD", "SILENT"]);
    assert_eq!(names(0.0), ["RANGES", "LOUD", "SILENT"]);
    assert!(detection::best(&evals, 10.0).is_none());
    assert!(detection::best(&evals[..1], 100.0).is_none());
}

#[test]
fn tables_follow_the_report_layout() {
    let (oracle, ..) = tiny();
    let a = tiny_eval("A", &[50, 100], 4, 1);
    let b = tiny_eval("B", &[100], 1, 1);
    let t = build_tables(&oracle, &[a, b], 50.0);
    let ids: Vec<_> = t.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "detection",
            "version_detection",
            "overall",
            "per_version",
            "curves",
            "baseline",
            "best_metrics"
        ]
    );
    // B at 100%: v1's failing run flagged, v2's t2 (abnormal) flagged
    // though it passes; 2-fold alarms on one of the original's two runs.
    assert_eq!(
        t[0].rows[2],
        [
            "B",
            "100",
            "1/2",
            "1/1 (100.00%)",
            "1/3 (33.33%)",
            "1/2 (50.00%)",
            "75.00"
        ]
    );
    // Per version, natural order, each strategy and percentage.
    assert_eq!(t[1].rows.len(), 2 * 3);
    assert_eq!(t[1].rows[0][..3], ["v1", "A", "50"]);
    assert_eq!(t[1].rows[5], ["v2", "B", "100", "-", "1/2 (50.00%)"]);
    assert_eq!(t[2].rows[1], ["B", "75.00", "100"]);
    // Versions are rows, the all-pass baseline beside each.
    let ones: Vec<&str> = t[5].rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(ones, ["50.00", "100.00", "75.00"]);
    assert!(t[5].to_markdown().contains("| overall | 75.00 | 75.00 |"));
    assert_eq!(
        t[3].header,
        [
            "Version",
            "All-pass accuracy (%)",
            "A acc (%)",
            "A pct",
            "B acc (%)",
            "B pct"
        ]
    );
    assert_eq!(t[3].rows[0][..2], ["v1", "50.00"]);
    assert!(t[6].title.contains(", A,"));
    assert_eq!(
        t[4].to_csv().lines().next(),
        Some(
            "Strategy,Training %,Correct (% of runs),Missed failing runs (% of runs),\
             Alarms on passing runs (% of runs)"
        )
    );
}

#[test]
fn without_strategies_only_the_baseline_remains() {
    let (oracle, ..) = tiny();
    let t = build_tables(&oracle, &[], 1.0);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].rows[2], ["overall", "-", "75.00"]);
    let (sentence, summary) = summary(&oracle, &[], 1.0);
    assert!(
        sentence.starts_with("No detector detects a faulty version"),
        "{sentence}"
    );
    assert!(summary.rows.is_empty());
}

#[test]
fn versions_sort_naturally() {
    let names = ["v10", "v2", "v1", "b", "a2"].map(String::from);
    let sorted: Vec<&str> = version_order(&names).iter().map(|&i| names[i].as_str()).collect();
    assert_eq!(sorted, ["a2", "b", "v1", "v2", "v10"]);
}

#[test]
fn the_summary_ranks_by_versions_detected_within_the_budget() {
    let (oracle, ..) = tiny();
    let [silent, _] = silent_and_loud(&oracle);
    let b = tiny_eval("B", &[100], 1, 1);
    let (sentence, table) = summary(&oracle, &[silent.clone(), b.clone()], 50.0);
    // SILENT is as accurate as B (75%) and first in the study, but detects nothing.
    assert!(
        sentence.starts_with(
            "Best detector at ≤ 50% alarms on the original's unseen runs: **B**, detecting 1 of 2 faulty \
             versions at 100% training (1/2 (50.00%) alarms on the original's unseen runs"
        ),
        "{sentence}"
    );
    assert!(
        sentence.contains("75.00% at 100% training, against 75.00%"),
        "{sentence}"
    );
    assert_eq!(
        table.rows[0],
        ["B", "1/2", "100", "50.00", "75.00", "100", "+0.00"]
    );
    assert_eq!(table.rows[1][..4], ["SILENT", "0/2", "-", "-"]);
    assert_eq!(table.header[1], "Versions detected at ≤ 50% alarms");
    let (sentence, _) = summary(&oracle, &[silent, b], 1.0);
    assert!(
        sentence.starts_with("No detector detects a faulty version within 1% alarms"),
        "{sentence}"
    );
}

#[test]
fn matrix_csv_has_tests_as_rows() {
    let (oracle, ..) = tiny();
    assert_eq!(oracle.to_csv(), "test,v1,v2\nt1,1,1\nt2,0,1\n");
}
