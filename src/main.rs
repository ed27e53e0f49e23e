fn main() {
    // A closed pipe (`weft … | head`) ends weft quietly, as it does other
    // Unix tools, instead of making every print panic: Rust ignores
    // SIGPIPE by default, and println! panics on the EPIPE that follows.
    // SAFETY: called first thing, with no other thread running.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Not for `weft experiment`: its threads check and learn from traces
    // in parallel, and one heap shared by them cost it 15 to 20% more CPU
    // and wall time (docs/benchmarks.md); the weaving it runs is a `weft`
    // process of its own, which keeps one heap.
    if std::env::args_os()
        .nth(1)
        .is_none_or(|command| command != "experiment")
    {
        one_heap();
    }
    std::process::exit(weft::cli::main());
}

/// Makes glibc's malloc keep one heap for every thread, and give freed
/// memory back past 128 KiB free at its top. By default each thread that
/// allocates gets a heap of its own, and memory freed in one is not reused
/// by another: the syntax trees the front end's threads parse, and let go
/// of later, stayed resident beside those the aspect's thread parses again
/// (a third of the peak memory of weaving a 4 MB file; docs/benchmarks.md).
fn one_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any other thread starts; mallopt only sets
    // malloc's parameters.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 * 1024);
    }
}
