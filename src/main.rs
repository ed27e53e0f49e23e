fn main() {
    // A closed pipe (`weft … | head`) ends weft quietly, as it does other
    // Unix tools, instead of making every print panic: Rust ignores
    // SIGPIPE by default, and println! panics on the EPIPE that follows.
    // SAFETY: called first thing, with no other thread running.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(weft::cli::main());
}
