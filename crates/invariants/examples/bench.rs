//! Samples per second of the naive and the optimised engine on a synthetic
//! trace of 10 integer variables (equal pairs, constants, linear and
//! ternary relations, noise).
//!
//!     cargo run --release -p weft-invariants --example bench [samples]

use std::time::Instant;

use weft_invariants::{Config, Engine, PointDecl, PointKind, Rep, Report, Value, VarDecl};

const VARS: usize = 10;

fn sample(i: u64, rng: &mut u64) -> [i64; VARS] {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    let counter = (i % 100) as i64;
    let noise = (*rng % 50) as i64;
    let wide = ((*rng >> 8) % 1000) as i64;
    [
        counter,
        counter,
        2 * counter + 3,
        7,
        noise,
        noise,
        counter + noise,
        0,
        wide,
        wide + 1,
    ]
}

fn run(optimize: bool, samples: u64) -> (Report, f64, usize) {
    let mut engine = Engine::new(Config {
        optimize,
        ..Config::default()
    });
    let vars = (0..VARS)
        .map(|i| VarDecl::new(format!("v{i}"), Rep::Int))
        .collect();
    let f = engine.declare(PointDecl {
        name: "f():::ENTER".into(),
        function: "f".into(),
        kind: PointKind::Enter,
        vars,
    });
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut values = vec![Value::Missing; VARS];
    let start = Instant::now();
    for i in 0..samples {
        for (slot, v) in values.iter_mut().zip(sample(i, &mut rng)) {
            *slot = Value::Int(v);
        }
        engine
            .add_sample(f, &values)
            .expect("the sample fits the declaration");
    }
    let live = engine.live_invariants();
    let report = engine.finish();
    (report, start.elapsed().as_secs_f64(), live)
}

fn main() {
    let samples: u64 = std::env::args()
        .nth(1)
        .map_or(1_000_000, |s| s.parse().expect("a sample count"));
    println!("{samples} samples x {VARS} variables");
    let mut reports = Vec::new();
    for (label, optimize) in [("naive", false), ("optimised", true)] {
        let (report, seconds, live) = run(optimize, samples);
        println!(
            "{label:>9}: {seconds:7.2} s  {:>12.0} samples/s  {live:>4} live invariants",
            samples as f64 / seconds
        );
        reports.push(report);
    }
    assert_eq!(reports[0], reports[1], "the engines disagree");
    println!(
        "same report ({} invariants):\n{}",
        reports[1].points[0].invariants.len(),
        reports[1]
    );
}
