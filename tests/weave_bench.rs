//! Weaving speed on gzip 1.12, side by side with tree-sitter's raw parse.
//! Not a timed test: it only reports. Run it with scripts/bench-weave.sh.

use std::path::Path;
use std::time::{Duration, Instant};

use weft::output::{Selection, scan, write_tree};
use weft::program::Program;

/// Best of `runs` timings of `f`.
fn best(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

#[test]
#[ignore = "benchmark: run scripts/bench-weave.sh"]
fn weave_gzip_against_raw_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gzip = root.join("third_party/gzip-1.12");
    let aspect = weft::aspect::load(&root.join("benches/instrument.lara")).unwrap();
    let entries = scan(std::slice::from_ref(&gzip), &Selection::new(&[], &[]).unwrap()).unwrap();
    let texts: Vec<String> = Program::load(&entries, None)
        .unwrap()
        .files()
        .iter()
        .map(|f| f.text.to_string())
        .collect();
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    let out = tempfile::tempdir().unwrap();

    let parse = best(5, || {
        for t in &texts {
            std::hint::black_box(weft::c::parse_view(t));
        }
    });
    let noop = best(5, || {
        let mut p = Program::load(&entries, None).unwrap();
        p.commit().unwrap();
        write_tree(&entries, &p.woven(), &out.path().join("noop")).unwrap();
    });
    let mut woven_files = 0;
    let instrument = best(5, || {
        let mut p = Program::load(&entries, None).unwrap();
        weft::engine::run(&aspect, None, &[], &mut p).unwrap();
        p.commit().unwrap();
        let woven = p.woven();
        woven_files = woven.len();
        write_tree(&entries, &woven, &out.path().join("instrumented")).unwrap();
    });
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("gzip 1.12: {} .c files, {lines} lines", texts.len());
    println!("raw tree-sitter parse      {:8.1} ms", ms(parse));
    println!(
        "no-op weave (whole tree)   {:8.1} ms  {:.2}x parse",
        ms(noop),
        ms(noop) / ms(parse)
    );
    println!(
        "instrumenting weave        {:8.1} ms  {:.2}x parse  ({woven_files} files changed)",
        ms(instrument),
        ms(instrument) / ms(parse)
    );
}
