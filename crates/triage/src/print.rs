//! Printing a [`Report`]: the terminal summary and the Markdown report.

use std::fmt::Write;

use super::questions::{Question, next_text, questions, revision_list};
use super::report::Report;

/// The first line of every Markdown report (how weft recognises its own
/// file before replacing it).
pub const MARKDOWN_TITLE: &str = "# weft triage report";

/// Whether `text` is a Markdown report weft wrote.
pub fn is_markdown_report(text: &str) -> bool {
    text.lines().next() == Some(MARKDOWN_TITLE)
}

/// The terminal summary: the classes, the tree as questions (unless
/// `with_tree` is false, as when the questions are about to be asked),
/// questions per class, the truth's verdict and the overall one.
pub fn summary(report: &Report, with_tree: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", runs_line(report));
    for problem in &report.problems {
        let _ = writeln!(out, "warning: {problem}");
    }
    let _ = writeln!(
        out,
        "\n{}:",
        count(report.classes.len(), "behaviour class", "behaviour classes")
    );
    for class in &report.classes {
        let label = class
            .label
            .as_ref()
            .map(|l| format!(" [{l}]"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  class {}: {}{label}",
            class.id,
            revision_list(&class.revisions)
        );
    }
    let silent = silent_inputs(report);
    if !silent.is_empty() {
        let _ = writeln!(out, "Every revision does the same on: {}", silent.join(", "));
    }
    if with_tree {
        let questions = questions(report);
        if !questions.is_empty() {
            let _ = writeln!(out, "\nQuestions (at most {} to reach a class):", report.depth);
        }
        for question in &questions {
            print_question(&mut out, report, question);
        }
        let _ = writeln!(out, "\nQuestions per class: {}", per_class(report));
    }
    let _ = writeln!(out, "{}", verdict(report));
    out
}

/// One question with its answers aligned, details indented below each.
fn print_question(out: &mut String, report: &Report, question: &Question) {
    let after = question.after_label();
    let _ = writeln!(
        out,
        "Q{}{after}. On input {}, which is right?",
        question.number,
        input_label(question)
    );
    let width = question
        .answers
        .iter()
        .map(|a| a.summary.chars().count())
        .max()
        .unwrap_or(0)
        .min(50);
    for (a, answer) in question.answers.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}) {:width$}  -> {}",
            a + 1,
            answer.summary,
            next_text(report, &answer.next)
        );
        for line in &answer.detail {
            let _ = writeln!(out, "       {line}");
        }
    }
}

/// `b-minus3 (/path/b-minus3)` or `tests.txt:3 (`echo 3 | ./p`)`.
pub fn input_label(question: &Question) -> String {
    format!("{} ({})", question.input.name, question.input.input)
}

/// `7 revisions x 4 inputs = 28 runs; compared: status, stdout`.
fn runs_line(report: &Report) -> String {
    let (r, i) = (report.revisions.len(), report.inputs.len());
    format!(
        "{} x {} = {}; compared: {}",
        count(r, "revision", "revisions"),
        count(i, "input", "inputs"),
        count(r * i, "run", "runs"),
        report.compared.join(", ")
    )
}

/// Names of the inputs no class differs on.
fn silent_inputs(report: &Report) -> Vec<&str> {
    report
        .inputs
        .iter()
        .filter(|i| !i.splits)
        .map(|i| i.name.as_str())
        .collect()
}

/// `class 1: 1, class 2: 3`.
fn per_class(report: &Report) -> String {
    let counts: Vec<String> = report
        .classes
        .iter()
        .map(|c| format!("class {}: {}", c.id, c.questions))
        .collect();
    counts.join(", ")
}

/// The truth's purity and the overall verdict, one line each.
fn verdict(report: &Report) -> String {
    let mut lines = Vec::new();
    if let Some(truth) = &report.truth {
        let mixed = if truth.mixed.is_empty() {
            "no class mixes labels".to_string()
        } else {
            let ids: Vec<String> = truth.mixed.iter().map(|id| format!("class {id}")).collect();
            format!("labels mixed in {}", ids.join(", "))
        };
        let unlabelled = if truth.unlabelled.is_empty() {
            String::new()
        } else {
            format!("; unlabelled: {}", revision_list(&truth.unlabelled))
        };
        let noun = if truth.labelled == 1 {
            "revision"
        } else {
            "revisions"
        };
        lines.push(format!(
            "Purity {:.2} over {} labelled {noun}; {mixed}{unlabelled}.",
            truth.purity, truth.labelled
        ));
    }
    lines.push(match (report.told_apart, report.truth.is_some()) {
        (true, true) => "Told apart: the questions separate every label.".to_string(),
        (true, false) => "Told apart: the questions single out every revision.".to_string(),
        (false, true) => "Not told apart: some revisions of different labels behave the same.".to_string(),
        (false, false) => "Not told apart: some revisions behave the same on every input.".to_string(),
    });
    lines.join("\n")
}

/// The Markdown report: the same as the summary, in sections and tables.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{MARKDOWN_TITLE}\n");
    if !report.command.is_empty() {
        let _ = writeln!(out, "Command: `{}`  ", report.command.join(" "));
    }
    let _ = writeln!(out, "{}.\n", runs_line(report));
    for problem in &report.problems {
        let _ = writeln!(out, "- Warning: {problem}");
    }
    let labelled = report.truth.is_some();
    let _ = writeln!(out, "## Behaviour classes\n");
    let _ = writeln!(
        out,
        "| class | revisions | questions |{}",
        if labelled { " label |" } else { "" }
    );
    let _ = writeln!(out, "|---|---|---|{}", if labelled { "---|" } else { "" });
    for class in &report.classes {
        let revisions: Vec<String> = class.revisions.iter().map(u32::to_string).collect();
        let label = if labelled {
            format!(" {} |", class.label.as_deref().unwrap_or(""))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |{label}",
            class.id,
            revisions.join(", "),
            class.questions
        );
    }
    let silent = silent_inputs(report);
    if !silent.is_empty() {
        let _ = writeln!(out, "\nEvery revision does the same on: {}.", silent.join(", "));
    }
    let questions = questions(report);
    if !questions.is_empty() {
        blank_line(&mut out);
        let _ = writeln!(
            out,
            "## Questions\n\nAt most {} to reach a class.\n",
            report.depth
        );
    }
    for question in &questions {
        markdown_question(&mut out, report, question);
    }
    blank_line(&mut out);
    let _ = writeln!(out, "## Verdict\n\n{}", verdict(report));
    out
}

/// Ends `out` with an empty line, once.
fn blank_line(out: &mut String) {
    while !out.ends_with("\n\n") {
        out.push('\n');
    }
}

fn markdown_question(out: &mut String, report: &Report, question: &Question) {
    let after = question.after_label();
    let _ = writeln!(
        out,
        "### Q{}{after}\n\nOn input `{}` (`{}`), which is right?\n",
        question.number, question.input.name, question.input.input
    );
    for (a, answer) in question.answers.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}. `{}` → {}",
            a + 1,
            answer.summary.replace('`', "'"),
            next_text(report, &answer.next)
        );
        if !answer.detail.is_empty() {
            let _ = writeln!(out, "\n   ```\n{}\n   ```", indent(&answer.detail, "   "));
        }
    }
    out.push('\n');
}

fn indent(lines: &[String], by: &str) -> String {
    lines
        .iter()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `1 run`, `3 runs`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn the_summary_lists_classes_then_questions_with_aligned_answers() {
        let report = crate::analyse(&[], &fixture::table(), None).unwrap();
        let text = summary(&report, true);
        let expected = "\
7 revisions x 4 inputs = 28 runs; compared: status, stdout

5 behaviour classes:
  class 1: revisions 0 (original), 5
  class 2: revisions 1, 2
  class 3: revision 3
  class 4: revision 4
  class 5: revision 6
Every revision does the same on: a-five

Questions (at most 3 to reach a class):
Q1. On input b-minus3 (./abs < b-minus3), which is right?
  1) stdout \"-3\\n\"  -> class 1 (revisions 0 (original), 5)
  2) stdout \"3\\n\"   -> Q2
  3) stdout \"0\\n\"   -> class 3 (revision 3)
Q2 (after Q1 answer 2). On input c-zero (./abs < c-zero), which is right?
  1) exit 0 | stdout \"0\\n\"  -> Q3
  2) signal 6 | stdout \"\"   -> class 4 (revision 4)
Q3 (after Q2 answer 1). On input d-seven (./abs < d-seven), which is right?
  1) exit 0 | stdout \"7\\n\"  -> class 2 (revisions 1, 2)
  2) timeout | stdout \"\"    -> class 5 (revision 6)

Questions per class: class 1: 1, class 2: 3, class 3: 1, class 4: 2, class 5: 3
Not told apart: some revisions behave the same on every input.
";
        assert_eq!(text, expected);
        assert!(!summary(&report, false).contains("Q1"));
    }

    #[test]
    fn the_markdown_report_is_recognised_as_weft_s_own() {
        let report = crate::analyse(&["./abs".into()], &fixture::table(), None).unwrap();
        let md = markdown(&report);
        assert!(is_markdown_report(&md), "{md}");
        assert!(md.contains("Command: `./abs`"), "{md}");
        assert!(md.contains("| 1 | 0, 5 | 1 |"), "{md}");
        assert!(
            md.contains("1. `exit 0 | stdout \"7\\n\"` → class 2 (revisions 1, 2)"),
            "{md}"
        );
        assert!(!is_markdown_report("# notes\n"));
    }
}
