//! Writing the woven tree: mirroring input directories, atomic output, diffs.
