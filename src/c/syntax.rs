//! Facts about tree-sitter-c's node kinds that several modules ask.

/// tree-sitter-c's statement kinds (the grammar's `statement` supertype);
/// declarations are not among them.
pub fn is_statement_kind(kind: &str) -> bool {
    matches!(
        kind,
        "attributed_statement"
            | "break_statement"
            | "case_statement"
            | "compound_statement"
            | "continue_statement"
            | "do_statement"
            | "expression_statement"
            | "for_statement"
            | "goto_statement"
            | "if_statement"
            | "labeled_statement"
            | "return_statement"
            | "switch_statement"
            | "while_statement"
    )
}
