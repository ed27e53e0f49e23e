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

/// Every allocation of weft, its Rust code's and the C code's it links
/// (tree-sitter's trees), is jemalloc's: the symbols `malloc`, `free`… are
/// jemalloc's own. glibc's malloc grew slower per block as a weave's heap
/// grew (a tree freed into the holes left between the blocks still in use):
/// weaving ASCV3 took 1.4 times as long per MB of C at 4 MB as at 1 MB,
/// nearly half of the growth in malloc and free (docs/benchmarks.md,
/// "Large files").
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options (`$MALLOC_CONF` adds to them): pages freed go back to
/// the system at once, not after 10 seconds. A large file's weave lets go of
/// the trees of each chunk it has walked past; kept, those pages took the
/// peak resident memory of weaving a 16 MB file from 121 to 173 MiB.
#[unsafe(export_name = "malloc_conf")]
pub static MALLOC_CONF: Options = Options(c"dirty_decay_ms:0,muzzy_decay_ms:0".as_ptr());

/// A C string jemalloc reads as its `malloc_conf`.
#[repr(transparent)]
pub struct Options(*const std::ffi::c_char);

// SAFETY: it points at a string constant, never written.
unsafe impl Sync for Options {}

#[cfg(test)]
mod tests {
    use std::ffi::{CStr, c_void};

    /// The value of jemalloc's option `name`.
    fn option(name: &CStr) -> isize {
        let mut value: isize = 0;
        let mut size = std::mem::size_of::<isize>();
        // SAFETY: `value` is an ssize_t-sized buffer of `size` bytes, as
        // the decay options are, and nothing is written.
        let status = unsafe {
            tikv_jemalloc_sys::mallctl(
                name.as_ptr(),
                (&raw mut value).cast::<c_void>(),
                &mut size,
                std::ptr::null_mut(),
                0,
            )
        };
        assert_eq!(status, 0, "mallctl {name:?}");
        value
    }

    #[test]
    fn freed_pages_go_back_at_once() {
        assert_eq!(option(c"opt.dirty_decay_ms"), 0);
        assert_eq!(option(c"opt.muzzy_decay_ms"), 0);
    }

    #[test]
    fn the_c_code_allocates_from_jemalloc() {
        // tree-sitter calls `malloc`: it is jemalloc's only when jemalloc
        // defines the unprefixed symbols.
        assert_eq!(
            libc::malloc as *const (),
            tikv_jemalloc_sys::malloc as *const (),
            "libc's malloc is not jemalloc's"
        );
    }
}
