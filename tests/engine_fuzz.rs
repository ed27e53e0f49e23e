//! Property test: running mutated aspects against a mock program never
//! panics; every failure is an `EngineError`.

mod aspect_support;
mod engine_support;

use engine_support::{MockHost, ROOT, s};
use proptest::prelude::*;
use weft::diag::SourceFile;

const SEED: &str = r#"aspectdef A
    input n = 2 end
    var id = 0;
    var o = new LaraObject();
    F: select function end
    L: select function.loop end
    apply to F::L
        if ($loop.rank > n) continue;
        $loop.insert before 'int c_[[id]] = [[o.getId("loop", $function.name, $loop.rank)]];';
        insert after %{ /* [[$function.name]] */ }%;
        id++;
    end
    condition $loop.type == "for" end
    call r : B(id);
    println(r.out);
end
aspectdef B input x end output out end out = [x, x / 3, #{ k: x }]; end
"#;

fn program() -> MockHost {
    let mut h = MockHost::new();
    let f = h.add(ROOT, "function", &[("name", s("main"))]);
    for rank in 1..4 {
        let kind = if rank == 2 { "while" } else { "for" };
        h.add(
            f,
            "loop",
            &[
                ("name", s(&format!("L{rank}"))),
                ("type", s(kind)),
                ("rank", weft::joinpoint::Value::Int(rank)),
            ],
        );
    }
    h
}

#[test]
fn seed_runs() {
    let module =
        weft::aspect::load_source(SourceFile::new("seed.lara", SEED), &weft::Limits::default()).unwrap();
    let report = aspect_support::run_aspect(&module, &[], &mut program()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.printed, vec!["[1, 0.3333333333333333, #{\"k\": 1}]"]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_aspects_run_or_fail_cleanly(
        cuts in prop::collection::vec((any::<usize>(), 0usize..6, "[ -~]{0,4}"), 1..4)
    ) {
        let mut text: Vec<char> = SEED.chars().collect();
        for (at, len, insert) in cuts {
            let at = at % text.len().max(1);
            let end = (at + len).min(text.len());
            text.splice(at..end, insert.chars());
        }
        let text: String = text.into_iter().collect();
        // Endless loops are stopped by the operation limit; keep mutations
        // from spelling loops so the test stays fast.
        prop_assume!(!text.contains("while") && !text.contains("loop {"));
        if let Ok(module) = weft::aspect::load_source(SourceFile::new("m.lara", text), &weft::Limits::default()) {
            let _ = aspect_support::run_aspect(&module, &[], &mut program());
        }
    }
}
