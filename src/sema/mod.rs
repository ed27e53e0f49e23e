//! Symbols and types: scopes, declarations, typedef resolution.
