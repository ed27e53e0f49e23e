//! Patch triage: run every revision of a meta program on the same inputs,
//! group the revisions by what they do, and build the decision tree of
//! questions ("on this input, which output is right?") that tells the
//! groups apart.
