//! The decision tree as numbered questions for people: each question
//! names its input, and each answer shows only what differs between the
//! answers (stdout as a compact line diff against the first answer).
//! The terminal summary, the Markdown report and `--ask` all show these.

use similar::{ChangeTag, TextDiff};

use super::report::{AnswerReport, InputReport, Node, ObservationReport, OutputsReport, Report};

/// Lines of stdout or stderr shown in full, or of a diff, at most.
const MAX_LINES: usize = 12;
/// Characters of one-line text shown inline at most.
const MAX_INLINE: usize = 60;

/// One question of the tree, numbered in preorder from 1.
#[derive(Debug, Clone)]
pub struct Question<'r> {
    /// From 1, in preorder.
    pub number: usize,
    /// The question and answer leading here (`None` for the first).
    pub after: Option<(usize, usize)>,
    /// The input asked about.
    pub input: &'r InputReport,
    pub answers: Vec<Answer>,
}

impl Question<'_> {
    /// ` (after Q2 answer 1)`, or nothing for the first question.
    pub fn after_label(&self) -> String {
        self.after
            .map(|(q, a)| format!(" (after Q{q} answer {a})"))
            .unwrap_or_default()
    }
}

/// One answer to a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What this answer's revisions do, on one line.
    pub summary: String,
    /// Longer texts: the first answer's output, a diff for the others.
    pub detail: Vec<String>,
    pub next: Next,
}

/// What follows an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    Question(usize),
    /// Class ids: one, or several no input tells apart.
    Classes(Vec<usize>),
}

/// The report's tree as questions, in preorder (empty when one class
/// needs no question).
pub fn questions(report: &Report) -> Vec<Question<'_>> {
    let mut all = Vec::new();
    collect(report, &report.tree, None, &mut all);
    all
}

fn collect<'r>(report: &'r Report, node: &Node, after: Option<(usize, usize)>, all: &mut Vec<Question<'r>>) {
    let Node::Question { input, answers, .. } = node else {
        return;
    };
    let input = &report.inputs[*input];
    let number = all.len() + 1;
    let shown = describe_answers(input, answers);
    all.push(Question {
        number,
        after,
        input,
        answers: Vec::new(),
    });
    let mut done = Vec::new();
    for (a, (answer, (summary, detail))) in answers.iter().zip(shown).enumerate() {
        let next = match &answer.then {
            Node::Leaf { classes } => Next::Classes(classes.clone()),
            Node::Question { .. } => Next::Question(all.len() + 1),
        };
        collect(report, &answer.then, Some((number, a + 1)), all);
        done.push(Answer {
            summary,
            detail,
            next,
        });
    }
    all[number - 1].answers = done;
}

/// Each answer's summary line and detail lines.
fn describe_answers(input: &InputReport, answers: &[AnswerReport]) -> Vec<(String, Vec<String>)> {
    let observed: Vec<&ObservationReport> = answers
        .iter()
        .map(|a| &input.observations[a.observation])
        .collect();
    let differs = |get: fn(&ObservationReport) -> String| observed.iter().any(|o| get(o) != get(observed[0]));
    let status = differs(|o| o.status.clone().unwrap_or_default());
    let stdout = differs(|o| o.stdout.clone().unwrap_or_default());
    let stderr = differs(|o| o.stderr.clone().unwrap_or_default());
    let outputs = differs(|o| o.outputs.as_ref().map(outputs_text).unwrap_or_default());
    observed
        .iter()
        .map(|o| {
            let mut summary = Vec::new();
            let mut detail = Vec::new();
            if status {
                summary.push(o.status.clone().unwrap_or_default());
            }
            for (shown, name, text, base) in [
                (stdout, "stdout", &o.stdout, &observed[0].stdout),
                (stderr, "stderr", &o.stderr, &observed[0].stderr),
            ] {
                if shown {
                    let (text, base) = (text.as_deref().unwrap_or(""), base.as_deref().unwrap_or(""));
                    summary.push(text_summary(name, text, base, &mut detail));
                }
            }
            if outputs {
                summary.push(format!(
                    "outputs {}",
                    o.outputs.as_ref().map(outputs_text).unwrap_or_default()
                ));
            }
            (summary.join(" | "), detail)
        })
        .collect()
}

/// `stdout "3\n"` for a short one-line text, `stdout empty`; else a line
/// count, with the text (first answer, or after an empty first answer) or
/// its diff from `base` (the others) as detail.
fn text_summary(name: &str, text: &str, base: &str, detail: &mut Vec<String>) -> String {
    let inline = |t: &str| t.trim_end_matches('\n').lines().count() <= 1 && t.len() <= MAX_INLINE;
    if inline(text) && inline(base) {
        return format!("{name} {text:?}");
    }
    if text.is_empty() {
        return format!("{name} empty");
    }
    let lines = text.lines().count();
    // Against an empty base, a diff would only repeat the text with `+`.
    if text == base || base.is_empty() {
        detail.extend(clip(text.lines().map(|l| format!("  {l}")).collect()));
        format!("{name}: {lines} lines")
    } else {
        detail.extend(clip(compact_diff(base, text)));
        format!("{name}: {lines} lines, differing from answer 1")
    }
}

/// The lines of a diff from `old` to `new` that change, with one line of
/// context around each change (` `, `-`, `+` prefixes; `…` between
/// groups).
pub fn compact_diff(old: &str, new: &str) -> Vec<String> {
    let diff = TextDiff::from_lines(old, new);
    let mut lines = Vec::new();
    for (g, group) in diff.grouped_ops(1).iter().enumerate() {
        if g > 0 {
            lines.push("…".to_string());
        }
        for change in group.iter().flat_map(|op| diff.iter_changes(op)) {
            let sign = match change.tag() {
                ChangeTag::Equal => ' ',
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
            };
            lines.push(format!("{sign} {}", change.value().trim_end_matches('\n')));
        }
    }
    lines
}

/// At most [`MAX_LINES`] of `lines`, saying how many were left out.
fn clip(mut lines: Vec<String>) -> Vec<String> {
    if lines.len() > MAX_LINES {
        let more = lines.len() - MAX_LINES;
        lines.truncate(MAX_LINES);
        lines.push(format!("… ({more} more lines)"));
    }
    lines
}

/// Captured values on one line: `unit{name=value, …}; …`.
pub fn outputs_text(outputs: &OutputsReport) -> String {
    match outputs {
        OutputsReport::Unreadable => "unreadable".into(),
        OutputsReport::Values(processes) if processes.is_empty() => "none".into(),
        OutputsReport::Values(processes) => processes
            .iter()
            .map(|p| {
                let values: Vec<String> = p
                    .values
                    .iter()
                    .map(|v| format!("{}={}", v.name, v.value))
                    .collect();
                format!("{}{{{}}}", p.unit, values.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// `revision 3` or `revisions 0 (original), 5`.
pub fn revision_list(revisions: &[u32]) -> String {
    let names: Vec<String> = revisions
        .iter()
        .map(|&r| {
            if r == crate::revisions::ORIGINAL {
                "0 (original)".into()
            } else {
                r.to_string()
            }
        })
        .collect();
    let noun = if revisions.len() == 1 {
        "revision"
    } else {
        "revisions"
    };
    format!("{noun} {}", names.join(", "))
}

/// Where an answer leads, in words: `Q2`, `class 3 (revision 4)` or
/// `classes 2, 3 (revisions …): no input tells them apart`.
pub fn next_text(report: &Report, next: &Next) -> String {
    match next {
        Next::Question(q) => format!("Q{q}"),
        Next::Classes(ids) => {
            let revisions = revision_list(&report.revisions_of(ids));
            match ids.as_slice() {
                [id] => format!("class {id} ({revisions})"),
                _ => {
                    let ids: Vec<String> = ids.iter().map(usize::to_string).collect();
                    format!(
                        "classes {} ({revisions}): no input tells them apart",
                        ids.join(", ")
                    )
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compact_diff_keeps_one_line_of_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\n";
        let new = "a\nB\nc\nd\ne\nf\nG\n";
        assert_eq!(
            compact_diff(old, new),
            ["  a", "- b", "+ B", "  c", "…", "  f", "- g", "+ G"]
        );
        assert!(compact_diff(old, old).is_empty());
    }

    #[test]
    fn short_texts_are_inline_and_long_ones_shown_as_a_diff() {
        let mut detail = Vec::new();
        assert_eq!(
            text_summary("stdout", "3\n", "-3\n", &mut detail),
            r#"stdout "3\n""#
        );
        assert!(detail.is_empty());
        let long: String = (0..20).map(|i| format!("line {i}\n")).collect();
        let changed = long.replace("line 7\n", "line seven\n");
        assert_eq!(
            text_summary("stdout", &long, &long, &mut detail),
            "stdout: 20 lines"
        );
        assert_eq!(detail.len(), MAX_LINES + 1);
        assert_eq!(detail[MAX_LINES], "… (8 more lines)");
        detail.clear();
        let summary = text_summary("stdout", &changed, &long, &mut detail);
        assert_eq!(summary, "stdout: 20 lines, differing from answer 1");
        assert_eq!(detail, ["  line 6", "- line 7", "+ line seven", "  line 8"]);
        detail.clear();
        assert_eq!(text_summary("stdout", "", &long, &mut detail), "stdout empty");
        assert!(detail.is_empty());
        assert_eq!(text_summary("stdout", &long, "", &mut detail), "stdout: 20 lines");
        assert_eq!(detail[0], "  line 0");
    }

    #[test]
    fn revisions_are_listed_with_the_original_named() {
        assert_eq!(revision_list(&[0, 5]), "revisions 0 (original), 5");
        assert_eq!(revision_list(&[3]), "revision 3");
    }
}
