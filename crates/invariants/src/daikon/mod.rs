//! Daikon formats.
