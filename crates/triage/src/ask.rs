//! `--ask`: walking the decision tree with the user, one question at a
//! time, to the revisions that behave as they want.

use std::io::{BufRead, Write};

use anyhow::{Context, bail};

use super::print::input_label;
use super::questions::{Next, Question, questions, revision_list};
use super::report::Report;

/// Where a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The revisions that behave as the user said (sorted).
    pub revisions: Vec<u32>,
    /// Why these, in words.
    pub why: String,
}

/// Asks the report's questions on `out`, reading answers from `answers`:
/// a number picks an answer, `0` says none is right, `?` stops with every
/// revision still possible. End of input before the last answer is an
/// error.
pub fn ask(report: &Report, answers: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let questions = questions(report);
    let Some(mut question) = questions.first() else {
        let all = report.revisions_of(&(1..=report.classes.len()).collect::<Vec<_>>());
        return Ok(Outcome {
            revisions: all,
            why: "every revision behaves the same".into(),
        });
    };
    loop {
        show(question, out)?;
        let choice = loop {
            match read_choice(answers, out, question.answers.len())? {
                Some(choice) => break choice,
                None => writeln!(
                    out,
                    "Answer with a number from 0 to {}, or ?.",
                    question.answers.len()
                )?,
            }
        };
        let next = match choice {
            Choice::Answer(a) => &question.answers[a - 1].next,
            Choice::None => {
                let why = format!("no revision does what you want on {}", question.input.name);
                return Ok(Outcome {
                    revisions: Vec::new(),
                    why,
                });
            }
            Choice::Unknown => {
                let ids = classes_under(&questions, question);
                let why = format!("you did not know what is right on {}", question.input.name);
                return Ok(Outcome {
                    revisions: report.revisions_of(&ids),
                    why,
                });
            }
        };
        match next {
            Next::Question(q) => question = &questions[q - 1],
            Next::Classes(ids) => {
                let revisions = report.revisions_of(ids);
                let why = match ids.as_slice() {
                    [id] => format!("class {id} behaves as you want"),
                    _ => "no input tells these revisions apart".to_string(),
                };
                return Ok(Outcome { revisions, why });
            }
        }
    }
}

/// What the user answered.
enum Choice {
    /// An answer, from 1.
    Answer(usize),
    /// None of the answers is right.
    None,
    /// The user does not know.
    Unknown,
}

fn show(question: &Question, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "\nQ{}. On input {}, which is right?",
        question.number,
        input_label(question)
    )?;
    for (a, answer) in question.answers.iter().enumerate() {
        writeln!(out, "  {}) {}", a + 1, answer.summary)?;
        for line in &answer.detail {
            writeln!(out, "       {line}")?;
        }
    }
    writeln!(out, "  0) none of these\n  ?) I do not know")?;
    Ok(())
}

/// Reads one answer; `None` when it is not one of the choices.
fn read_choice(
    answers: &mut impl BufRead,
    out: &mut impl Write,
    count: usize,
) -> anyhow::Result<Option<Choice>> {
    write!(out, "> ")?;
    out.flush()?;
    let mut line = String::new();
    if answers.read_line(&mut line).context("cannot read the answer")? == 0 {
        bail!("no answer: the input ended before the last question");
    }
    Ok(match line.trim() {
        "?" => Some(Choice::Unknown),
        "0" => Some(Choice::None),
        text => text
            .parse()
            .ok()
            .filter(|a| (1..=count).contains(a))
            .map(Choice::Answer),
    })
}

/// Ids of the classes under `question`.
fn classes_under(questions: &[Question], question: &Question) -> Vec<usize> {
    question
        .answers
        .iter()
        .flat_map(|answer| match &answer.next {
            Next::Classes(ids) => ids.clone(),
            Next::Question(q) => classes_under(questions, &questions[q - 1]),
        })
        .collect()
}

/// The session's last lines: the revisions and why.
pub fn conclusion(outcome: &Outcome) -> String {
    if outcome.revisions.is_empty() {
        format!("No revision behaves as you want: {}.", outcome.why)
    } else {
        format!(
            "Behaving as you want: {} ({}).",
            revision_list(&outcome.revisions),
            outcome.why
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    fn session(answers: &str) -> anyhow::Result<(Outcome, String)> {
        let report = crate::analyse(&[], &fixture::table(), None)?;
        let mut out = Vec::new();
        let outcome = ask(&report, &mut answers.as_bytes(), &mut out)?;
        Ok((outcome, String::from_utf8(out)?))
    }

    #[test]
    fn answers_lead_to_the_class_behaving_as_wanted() {
        let (outcome, shown) = session("2\n1\n1\n").unwrap();
        assert_eq!(outcome.revisions, vec![1, 2]);
        assert_eq!(
            conclusion(&outcome),
            "Behaving as you want: revisions 1, 2 (class 2 behaves as you want)."
        );
        assert!(
            shown.contains("Q1. On input b-minus3 (./abs < b-minus3), which is right?"),
            "{shown}"
        );
        assert!(
            shown.contains("  1) exit 0 | stdout \"0\\n\"\n  2) signal 6 | stdout \"\"\n"),
            "{shown}"
        );
        assert!(shown.contains("Q3. On input d-seven"), "{shown}");
    }

    #[test]
    fn a_bad_answer_is_asked_again() {
        let (outcome, shown) = session("x\n9\n1\n").unwrap();
        assert_eq!(outcome.revisions, vec![0, 5]);
        assert_eq!(
            shown.matches("Answer with a number from 0 to 3, or ?.").count(),
            2,
            "{shown}"
        );
    }

    #[test]
    fn none_and_unknown_end_the_session() {
        let (outcome, _) = session("0\n").unwrap();
        assert!(outcome.revisions.is_empty());
        assert_eq!(
            conclusion(&outcome),
            "No revision behaves as you want: no revision does what you want on b-minus3."
        );
        let (outcome, _) = session("2\n?\n").unwrap();
        assert_eq!(outcome.revisions, vec![1, 2, 4, 6]);
        let err = session("2\n").unwrap_err().to_string();
        assert!(err.contains("the input ended before the last question"), "{err}");
    }
}
