//! The optimisations (dynamic constants, equality sets, suppression) must
//! not change what is reported: on random small traces, the optimised
//! engine's report equals the naive engine's, which instantiates every
//! invariant over every tuple and checks every sample.

use proptest::prelude::*;
use weft_invariants::{Checks, Config, Engine, PointDecl, PointKind, Rep, Report, Value, VarDecl};

/// How a variable's value is made from the sample number and the earlier
/// variables, so that relations are present often enough to be found.
#[derive(Clone, Debug)]
enum Recipe {
    Const(i64),
    Pool(Vec<i64>),
    Equal(usize),
    Linear(usize, i64, i64),
    Sum(usize, usize, i64),
    ConstUntil(i64, usize),
    EqualUntil(usize, usize),
    Counter(i64),
}

#[derive(Clone, Debug)]
struct Spec {
    recipes: Vec<Recipe>,
    missing: Vec<bool>,
    comparability: Vec<Option<u32>>,
    extras: bool,
    samples: usize,
    seed: u64,
}

fn recipe(i: usize) -> BoxedStrategy<Recipe> {
    let pool = prop::collection::vec(-3i64..4, 1..4).prop_map(Recipe::Pool);
    let simple = prop_oneof![
        (-2i64..3).prop_map(Recipe::Const),
        pool,
        (0i64..3).prop_map(Recipe::Counter)
    ];
    if i == 0 {
        return simple.boxed();
    }
    prop_oneof![
        3 => simple,
        2 => (0..i).prop_map(Recipe::Equal),
        2 => (0..i, -2i64..4, -2i64..3).prop_map(|(j, a, b)| Recipe::Linear(j, a, b)),
        1 => (0..i, 0..i, -1i64..2).prop_map(|(j, k, c)| Recipe::Sum(j, k, c)),
        1 => (-2i64..3, 0usize..12).prop_map(|(c, t)| Recipe::ConstUntil(c, t)),
        1 => (0..i, 0usize..12).prop_map(|(j, t)| Recipe::EqualUntil(j, t)),
    ]
    .boxed()
}

fn spec() -> impl Strategy<Value = Spec> {
    (2usize..6).prop_flat_map(|n| {
        let recipes: Vec<_> = (0..n).map(recipe).collect();
        (
            recipes,
            prop::collection::vec(prop::bool::weighted(0.15), n),
            prop::collection::vec(prop_oneof![4 => Just(None), 1 => (1u32..3).prop_map(Some)], n),
            any::<bool>(),
            0usize..40,
            any::<u64>(),
        )
            .prop_map(|(recipes, missing, comparability, extras, samples, seed)| Spec {
                recipes,
                missing,
                comparability,
                extras,
                samples,
                seed,
            })
    })
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next() % items.len() as u64) as usize]
    }
}

fn ints(spec: &Spec, t: usize, rng: &mut Rng) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for r in &spec.recipes {
        let v = match r {
            Recipe::Const(c) => *c,
            Recipe::Pool(p) => rng.pick(p),
            Recipe::Equal(j) => out[*j],
            Recipe::Linear(j, a, b) => a * out[*j] + b,
            Recipe::Sum(j, k, c) => out[*j] + out[*k] + c,
            Recipe::ConstUntil(c, until) => {
                if t < *until {
                    *c
                } else {
                    rng.pick(&[-1, 0, 2, 5])
                }
            }
            Recipe::EqualUntil(j, until) => {
                if t < *until {
                    out[*j]
                } else {
                    out[*j] + rng.pick(&[0, 1])
                }
            }
            Recipe::Counter(step) => t as i64 * step,
        };
        out.push(v);
    }
    out
}

fn decl(spec: &Spec, name: &str, kind: PointKind) -> PointDecl {
    let mut vars: Vec<VarDecl> = (0..spec.recipes.len())
        .map(|i| VarDecl {
            name: format!("v{i}"),
            rep: Rep::Int,
            comparability: spec.comparability[i],
        })
        .collect();
    if spec.extras {
        vars.push(VarDecl::new("a", Rep::IntSeq));
        vars.push(VarDecl::new("p", Rep::Pointer));
        vars.push(VarDecl::new("s", Rep::Str));
        vars.push(VarDecl::new("f", Rep::Float));
    }
    PointDecl {
        name: name.into(),
        function: "f".into(),
        kind,
        vars,
    }
}

fn sample(spec: &Spec, t: usize, rng: &mut Rng) -> Vec<Value> {
    let mut values: Vec<Value> = ints(spec, t, rng)
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            if spec.missing[i] && rng.next().is_multiple_of(4) {
                Value::Missing
            } else {
                Value::Int(v)
            }
        })
        .collect();
    if spec.extras {
        let first = match &values[0] {
            Value::Int(v) => *v,
            _ => 0,
        };
        let len = (rng.next() % 4) as usize;
        let mut seq: Vec<i64> = (0..len).map(|_| rng.pick(&[0, 1, 2, first])).collect();
        if rng.next().is_multiple_of(2) {
            seq.sort();
        }
        values.push(Value::IntSeq(seq));
        values.push(Value::Pointer(rng.pick(&[0, 0x10, 0x20])));
        values.push(Value::Str(rng.pick(&["a", "b"]).to_string()));
        values.push(Value::Float(rng.pick(&[0.5, 1.0, first as f64])));
    }
    values
}

/// The samples of a trace: each one's values, seen at the entry and then
/// at exit 2 (`true`) or exit 1.
fn trace(spec: &Spec) -> Vec<(Vec<Value>, bool)> {
    let mut rng = Rng(spec.seed | 1);
    (0..spec.samples)
        .map(|t| {
            let values = sample(spec, t, &mut rng);
            (values, rng.next().is_multiple_of(3))
        })
        .collect()
}

fn points(spec: &Spec) -> [PointDecl; 3] {
    [
        decl(spec, "f():::ENTER", PointKind::Enter),
        decl(spec, "f():::EXIT1", PointKind::Exit),
        decl(spec, "f():::EXIT2", PointKind::Exit),
    ]
}

fn run(spec: &Spec, optimize: bool) -> Report {
    let mut engine = Engine::new(Config {
        optimize,
        ..Config::default()
    });
    let [enter, exit1, exit2] = points(spec).map(|d| engine.declare(d));
    for (values, second) in trace(spec) {
        engine.add_sample(enter, &values).unwrap();
        engine
            .add_sample(if second { exit2 } else { exit1 }, &values)
            .unwrap();
    }
    engine.finish()
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(400)
}

proptest! {
    // PROPTEST_CASES=20000 for a longer search.
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn optimised_reports_what_naive_reports(spec in spec()) {
        let naive = run(&spec, false);
        let optimised = run(&spec, true);
        prop_assert_eq!(optimised.to_string(), naive.to_string());
        prop_assert_eq!(optimised, naive);
    }

    /// Checking and printing read one claim: no training sample violates
    /// an invariant learned from it, and checking the same samples again
    /// finds what the text says.
    #[test]
    fn learned_invariants_hold_on_their_training_samples(spec in spec()) {
        let checks = Checks::new(run(&spec, true));
        let [enter, exit1, exit2] = points(&spec);
        let mut bound = [checks.bind(&enter), checks.bind(&exit1), checks.bind(&exit2)];
        for (values, second) in trace(&spec) {
            for b in [0, if second { 2 } else { 1 }] {
                let violated = bound[b].check(&values).unwrap();
                prop_assert!(violated.is_empty(), "{:?} violated by {:?}", violated, values);
            }
        }
    }
}
