//! Metrics, tie rules, prediction and tables on hand-computed matrices.

use weft::experiment::evaluate::{Schedule, evaluate};
use weft::experiment::matrix::{FaultMatrix, Observation, predict};
use weft::experiment::metrics::{Confusion, best_percentage, fmt_percent, percentage_of_ones};
use weft::experiment::{summary, tables};
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
    let observed = vec![vec![obs(0, 4), obs(0, 9)], vec![obs(0, 1), Observation::Abnormal]];
    (oracle, training, observed)
}

fn schedule(percentages: &[u32], draws: u32, seed: u64) -> Schedule {
    Schedule {
        percentages: percentages.to_vec(),
        draws,
        seed,
    }
}

#[test]
fn evaluation_matches_hand_computation() {
    let (oracle, training, observed) = tiny();
    let e = evaluate("S", &oracle, &training, &observed, &schedule(&[50, 100], 1, 3));
    let full = &e.points[1];
    assert_eq!((e.points[0].training_runs, full.training_runs), (1, 2));
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
    assert_eq!(
        e,
        evaluate("S", &oracle, &training, &observed, &schedule(&[50, 100], 1, 3))
    );
}

#[test]
fn tables_follow_the_report_layout() {
    let (oracle, training, observed) = tiny();
    let a = evaluate("A", &oracle, &training, &observed, &schedule(&[50, 100], 4, 1));
    let b = evaluate("B", &oracle, &training, &observed, &schedule(&[100], 1, 1));
    let t = tables::build(&oracle, &[a, b]);
    let ids: Vec<_> = t.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        ["overall", "per_version", "curves", "baseline", "best_metrics"]
    );
    // B reaches 75% at 100; A reaches 75% at 100 too (and maybe at 50):
    // either way A wins the tie with the smaller or equal percentage, being first.
    assert_eq!(t[0].rows[1], ["B", "75.00", "100"]);
    // Versions are rows, the all-pass baseline beside each.
    let ones: Vec<&str> = t[3].rows.iter().map(|r| r[2].as_str()).collect();
    assert_eq!(ones, ["50.00", "100.00", "75.00"]);
    assert!(t[3].to_markdown().contains("| overall | 75.00 | 75.00 |"));
    assert_eq!(
        t[1].header,
        [
            "Version",
            "Percentage of 1s",
            "A acc (%)",
            "A pct",
            "B acc (%)",
            "B pct"
        ]
    );
    assert_eq!(t[1].rows[0][..2], ["v1", "50.00"]);
    assert!(t[4].title.contains(", A,"));
    assert_eq!(
        t[0].to_csv().lines().next(),
        Some("Strategy,Best Accuracy (%),Best Percentage")
    );
}

#[test]
fn without_strategies_only_the_baseline_remains() {
    let (oracle, ..) = tiny();
    let t = tables::build(&oracle, &[]);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].rows[2], ["overall", "-", "75.00"]);
    let (sentence, summary) = summary::summary(&oracle, &[]);
    assert!(sentence.starts_with("No detector scored"), "{sentence}");
    assert!(summary.rows.is_empty());
}

#[test]
fn versions_sort_naturally() {
    let names = ["v10", "v2", "v1", "b", "a2"].map(String::from);
    let sorted: Vec<&str> = tables::version_order(&names)
        .iter()
        .map(|&i| names[i].as_str())
        .collect();
    assert_eq!(sorted, ["a2", "b", "v1", "v2", "v10"]);
}

#[test]
fn the_summary_names_the_best_detector_against_the_baseline() {
    let (oracle, training, observed) = tiny();
    let a = evaluate("A", &oracle, &training, &observed, &schedule(&[50, 100], 4, 1));
    let b = evaluate("B", &oracle, &training, &observed, &schedule(&[100], 1, 1));
    let (sentence, table) = summary::summary(&oracle, &[b, a]);
    // Tied at 75%, B comes first in the study and stays first.
    assert!(
        sentence.starts_with("Best detector: **B**, 75.00% accurate at 100% training, against 75.00%"),
        "{sentence}"
    );
    assert!(
        sentence.contains("(+0.00 points); it detects 1 of 2 faulty versions"),
        "{sentence}"
    );
    assert_eq!(table.rows[0], ["B", "75.00", "100", "+0.00", "1/2"]);
}

#[test]
fn matrix_csv_has_tests_as_rows() {
    let (oracle, ..) = tiny();
    assert_eq!(oracle.to_csv(), "test,v1,v2\nt1,1,1\nt2,0,1\n");
}
