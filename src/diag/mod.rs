//! Diagnostics rendered with codespan-reporting (file:line:col, caret, hint).
