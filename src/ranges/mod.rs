//! Range records written by the C runtime: reading, merging, learning, checking.
