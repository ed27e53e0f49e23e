//! weft's speed on gzip 1.12, side by side with tree-sitter's raw parse of
//! the same files. Every figure is the median of several rounds, each
//! round running every job once (so that load from elsewhere falls on all
//! of them alike), as wall time and as the process's CPU time. Not a timed
//! test: it only reports.
//!
//! weft parses, re-parses and transforms files on all cores (rayon). Each
//! weaving job runs twice: on one thread, where its CPU time is its work
//! and compares like for like with the one-thread raw parse, and on all
//! cores, where its wall time is what a user waits (its CPU time there also
//! counts the workers' waiting).
//!
//! Two file sets, each compared with its own raw parse:
//! - the whole tree (every .c file, lib/ included): front end, no-op weave,
//!   instrumenting weave; writing the mirrored output is I/O, not weaving,
//!   so it is timed on its own and left out of the ratios;
//! - gzip's own .c files (the top directory): front end and the five
//!   transformation passes.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use weft::c::{FrontEnd, MacroTable, ParsedFile, Sources, parse_view};
use weft::output::{Selection, scan, write_tree};
use weft::program::Program;
use weft::program::transform_text;
use weft::transform::pass_names;

/// Rounds unless `WEFT_BENCH_RUNS` says otherwise.
const DEFAULT_RUNS: usize = 7;

/// CPU time of the whole process (all threads, user and system). On a
/// shared machine it moves far less than wall time with other load.
fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Wall and CPU time of each run of one job.
#[derive(Default)]
struct Times {
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

impl Times {
    fn time(&mut self, f: impl FnOnce()) {
        let (wall, cpu) = (Instant::now(), cpu_time());
        f();
        self.cpu.push(cpu_time().saturating_sub(cpu));
        self.wall.push(wall.elapsed());
    }

    fn min(times: &[Duration]) -> Duration {
        times.iter().min().copied().unwrap_or_default()
    }

    fn median(times: &[Duration]) -> Duration {
        let mut sorted = times.to_vec();
        sorted.sort();
        sorted.get(sorted.len() / 2).copied().unwrap_or_default()
    }
}

/// A pool of one thread: work run in it is timed without parallelism.
fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool")
}

/// One printed row: medians of wall and CPU time and the fastest wall time,
/// with their ratios to `base`'s. Load from elsewhere only ever adds time,
/// so on a shared machine the fastest rounds are the closest to the work.
fn row(name: &str, t: &Times, base: Option<&Times>) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (wall, cpu, min) = (Times::median(&t.wall), Times::median(&t.cpu), Times::min(&t.wall));
    let ratios = base.map_or(String::new(), |b| {
        format!(
            "{:7.2}x {:7.2}x {:7.2}x",
            ms(wall) / ms(Times::median(&b.wall)),
            ms(cpu) / ms(Times::median(&b.cpu)),
            ms(min) / ms(Times::min(&b.wall))
        )
    });
    println!(
        "  {name:<38} {:9.1} {:9.1} {:9.1} {ratios}",
        ms(wall),
        ms(cpu),
        ms(min)
    );
}

fn header(title: &str, files: usize, lines: usize) {
    println!("\n{title}: {files} .c files, {lines} lines");
    println!(
        "  {:<38} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}",
        "(ms)", "wall", "cpu", "min wall", "wall/raw", "cpu/raw", "min/raw"
    );
}

fn lines_of<'a>(texts: impl IntoIterator<Item = &'a str>) -> usize {
    texts.into_iter().map(|t| t.lines().count()).sum()
}

fn front_end_parse(front: &FrontEnd, files: &[(PathBuf, String)]) {
    for (path, text) in files {
        std::hint::black_box(front.parse(path, text.as_str().into()));
    }
}

fn raw_parse<'a>(texts: impl IntoIterator<Item = &'a str>) {
    for t in texts {
        std::hint::black_box(parse_view(t));
    }
}

/// The whole tree: raw parse, front end, no-op and instrumenting weaves.
fn whole_tree(root: &Path, gzip: &Path, runs: usize) {
    let aspect = weft::aspect::load(&root.join("benches/instrument.lara"), &weft::Limits::default())
        .expect("benches/instrument.lara loads");
    let entries = scan(
        &[gzip.to_path_buf()],
        &Selection::new(&[], &[]).expect("empty selection"),
    )
    .expect("scan");
    let mut program = Program::load(&entries, None).expect("gzip loads");
    let files: Vec<(PathBuf, String)> = program
        .files()
        .iter()
        .map(|f: &ParsedFile| (f.path.clone(), f.text.to_string()))
        .collect();
    let headers: Vec<(PathBuf, String)> = entries
        .iter()
        .map(|e| e.source.clone())
        .filter(|p| p.extension().is_some_and(|x| x == "h"))
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect();
    header(
        "gzip 1.12 whole tree",
        files.len(),
        lines_of(files.iter().map(|(_, t)| t.as_str())),
    );
    let out = tempfile::tempdir().expect("temporary directory");
    let learn = || {
        let all = files.iter().chain(&headers);
        MacroTable::learn(all.map(|(p, t)| (p.as_path(), t.as_str())))
    };
    let front = FrontEnd::new(learn());
    let pool = one_thread();
    let no_op = || {
        let mut p = Program::load(&entries, None).expect("gzip loads");
        p.commit();
        std::hint::black_box(p.woven());
    };
    // Load, then run the aspect, commit and take the woven texts (the
    // program is dropped in the timed part, as in the no-op weave and in
    // `weft weave`): (load, run) times, and the woven texts.
    let instrument = |load: &mut Times, run: &mut Times| {
        let mut p = None;
        load.time(|| p = Some(Program::load(&entries, None).expect("gzip loads")));
        let mut p = p.expect("loaded");
        let mut woven = None;
        run.time(|| {
            weft::engine::run(
                &aspect,
                None,
                &[],
                weft_monitor::SCRIPT_APIS,
                &weft::Limits::default(),
                &mut p,
            )
            .expect("instrument.lara runs");
            p.commit();
            woven = Some(std::mem::take(&mut p).woven());
        });
        woven.expect("woven")
    };
    let mut t: [Times; 12] = Default::default();
    let mut changed = 0;
    // Round-robin, so that load from elsewhere falls on every job alike.
    for round in 0..runs {
        t[0].time(|| raw_parse(files.iter().map(|(_, t)| t.as_str())));
        t[1].time(|| {
            std::hint::black_box(learn());
        });
        t[2].time(|| front_end_parse(&front, &files));
        t[3].time(|| pool.install(no_op));
        t[4].time(no_op);
        let [load, run] = &mut t[6..8] else { unreachable!() };
        pool.install(|| instrument(load, run));
        let [load, run] = &mut t[9..11] else {
            unreachable!()
        };
        let woven = instrument(load, run);
        for (whole, parts) in [(5, 6), (8, 9)] {
            let wall = t[parts].wall[round] + t[parts + 1].wall[round];
            let cpu = t[parts].cpu[round] + t[parts + 1].cpu[round];
            t[whole].wall.push(wall);
            t[whole].cpu.push(cpu);
        }
        changed = woven.len();
        t[11].time(|| {
            write_tree(&entries, &woven, &out.path().join(round.to_string())).expect("output written")
        });
    }
    let base = Some(&t[0]);
    row("raw tree-sitter parse", &t[0], None);
    row("macro learning (.c and .h)", &t[1], base);
    row("front end parse", &t[2], base);
    row("no-op weave, one thread", &t[3], base);
    row("no-op weave, all cores", &t[4], base);
    row("instrumenting weave, one thread", &t[5], base);
    row("  load (learn macros, parse)", &t[6], base);
    row("  run aspect, commit, take output", &t[7], base);
    row("instrumenting weave, all cores", &t[8], base);
    row("  load (learn macros, parse)", &t[9], base);
    row("  run aspect, commit, take output", &t[10], base);
    println!("  ({changed} files changed by the instrumenting weave)");
    println!(
        "  writing the mirrored output ({} entries; I/O, not weaving, not in the ratios):",
        entries.len()
    );
    row("", &t[11], None);
}

/// gzip's own .c files: raw parse, front end, the five passes.
fn own_sources(gzip: &Path, runs: usize) {
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(gzip)
        .expect("gzip directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect();
    files.sort();
    header(
        "gzip 1.12 own sources (top directory)",
        files.len(),
        lines_of(files.iter().map(|(_, t)| t.as_str())),
    );
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let sources = Sources::collect(&paths, false).expect("gzip sources");
    let front = sources.front_end(None).expect("front end");
    let passes: Vec<&str> = pass_names().iter().map(|(n, _)| *n).collect();
    let include = [gzip.to_path_buf()];
    let pool = one_thread();
    let passes_run = || {
        let front = sources.front_end(None).expect("front end");
        std::hint::black_box(transform_text(&front, &files, &passes, &include).expect("passes run"));
    };
    let mut t: [Times; 4] = Default::default();
    for _ in 0..runs {
        t[0].time(|| raw_parse(files.iter().map(|(_, t)| t.as_str())));
        t[1].time(|| front_end_parse(&front, &files));
        t[2].time(|| pool.install(passes_run));
        t[3].time(passes_run);
    }
    row("raw tree-sitter parse", &t[0], None);
    row("front end parse", &t[1], Some(&t[0]));
    row("five passes, one thread", &t[2], Some(&t[0]));
    row("five passes, all cores", &t[3], Some(&t[0]));
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gzip = root.join("third_party/gzip-1.12");
    if !gzip.join("gzip.c").exists() {
        eprintln!("gzip 1.12 missing: run scripts/fetch-gzip.sh");
        std::process::exit(1);
    }
    let runs = std::env::var("WEFT_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(DEFAULT_RUNS);
    println!("{runs} rounds: medians and fastest; ratios are over the raw parse of the same files");
    whole_tree(root, &gzip, runs);
    own_sources(&gzip, runs);
}
