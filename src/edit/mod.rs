//! Text edits: byte-range insertions and replacements on a file's text,
//! ordered, checked for overlap, and placed where they make legal C.
