//! Behaviour-preserving transformation passes (MANET's engines).
