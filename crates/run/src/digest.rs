//! Content digests: what run records hold of a run's outputs, and what
//! cache keys are spelled with.

use sha2::{Digest, Sha256};

/// Hex SHA-256 digest of a byte string.
pub fn hash_bytes(b: &[u8]) -> String {
    hex(&Sha256::digest(b))
}

/// Lower-case hex spelling of bytes.
pub fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}
