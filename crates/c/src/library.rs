//! What weft knows of C library functions by name, beyond their
//! declarations (system headers are never read).

/// Functions whose only effect is writing to standard output: a call whose
/// result is unused and whose arguments have no effect changes nothing a
/// loop reads (non-termination monitoring and recurrence conditions treat
/// it as an empty statement).
pub const OUTPUT_ONLY: &[&str] = &["printf", "puts", "putchar"];

/// Functions that write through a pointer argument without reading what
/// it points to first, by name and the index of the first such argument;
/// `true` when every later argument is one too (the `scanf` family's
/// targets). `strcat`'s destination is not one: it is read first.
const FILLS: &[(&str, usize, bool)] = &[
    ("fgets", 0, false),
    ("gets", 0, false),
    ("fread", 0, false),
    ("read", 1, false),
    ("recv", 1, false),
    ("memcpy", 0, false),
    ("memmove", 0, false),
    ("memset", 0, false),
    ("bzero", 0, false),
    ("strcpy", 0, false),
    ("strncpy", 0, false),
    ("stpcpy", 0, false),
    ("sprintf", 0, false),
    ("snprintf", 0, false),
    ("vsprintf", 0, false),
    ("vsnprintf", 0, false),
    ("strftime", 0, false),
    ("getcwd", 0, false),
    ("scanf", 1, true),
    ("sscanf", 2, true),
    ("fscanf", 2, true),
];

/// Whether library function `name` writes what its argument `index` (from
/// 0) points to before reading it: a buffer it fills.
pub fn fills_argument(name: &str, index: usize) -> bool {
    FILLS
        .iter()
        .any(|&(f, first, rest)| f == name && (index == first || (rest && index > first)))
}
