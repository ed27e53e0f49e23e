//! What weft knows of C library functions by name, beyond their
//! declarations (system headers are never read).

/// Functions whose only effect is writing to standard output: a call whose
/// result is unused and whose arguments have no effect changes nothing a
/// loop reads (non-termination monitoring and recurrence conditions treat
/// it as an empty statement).
pub const OUTPUT_ONLY: &[&str] = &["printf", "puts", "putchar"];
