//! Alternative passes over conditional groups. The front end reads a group
//! whose branches cut through braces or parentheses with one branch kept;
//! the functions of the other branches are then neither parsed nor woven,
//! and a user building the other configuration would get them
//! uninstrumented. Each alternative pass reads the files that have such
//! branches again with the next branch kept ([`weft_c::FrontEnd::for_pass`]),
//! the aspect runs over that reading, and the edits that fall in text only
//! that pass read are added to the weave. An edit in text the first reading
//! shares (or an earlier pass took) comes from the first reading alone, so
//! edits of different passes never overlap.

use std::ops::Range;
use std::sync::Arc;

use similar::{Algorithm, DiffTag, capture_diff_slices};

use super::{Committed, CommittedEdits, Program};
use crate::edit::{Edit, splice};
use weft_c::Pass;

/// What the first reading of a file left unread.
#[derive(Debug, Clone, Default)]
pub(super) struct FirstReading {
    /// Branches with code blanked (original offsets).
    unread: Vec<Range<usize>>,
    /// The passes that read them.
    passes: Vec<Pass>,
}

impl FirstReading {
    pub(super) fn of(file: &weft_c::ParsedFile) -> FirstReading {
        FirstReading {
            unread: file.unread.clone(),
            passes: file.passes().collect(),
        }
    }
}

impl Program {
    /// The alternative passes the program's files need, in order (none
    /// when every conditional group was read with all its branches).
    pub fn alternatives(&self) -> Vec<Pass> {
        let mut passes: Vec<Pass> = self
            .readings
            .iter()
            .flat_map(|r| r.passes.iter().copied())
            .collect();
        passes.sort();
        passes.dedup();
        passes
    }

    /// The files that need `pass`, in their original text, read by that
    /// pass, with the same names, include directories and loop analysis as
    /// this program.
    pub fn alternative(&self, pass: Pass) -> Program {
        let chosen: Vec<usize> = (0..self.files.len())
            .filter(|&i| self.readings[i].passes.contains(&pass))
            .collect();
        let sources = chosen
            .iter()
            .map(|&i| (self.files[i].path.clone(), self.originals[i].to_string()));
        let mut alt = Program::new(self.front.for_pass(pass), sources);
        alt.units = chosen.iter().map(|&i| self.units[i].clone()).collect();
        alt.include_dirs = self.include_dirs.clone();
        alt.loop_analysis = self.loop_analysis.clone();
        alt
    }

    /// Adds to this program's weave the edits `alt` (an
    /// [`Program::alternative`], woven) made in text that only its pass
    /// read: inside a branch this program's first reading did not keep and
    /// `alt` did, touching no edit this program has. A file whose shared
    /// text `alt` wove otherwise takes none (noted in
    /// [`Program::skipped`]). Returns how many edits were taken.
    pub fn absorb(&mut self, alt: &Program) -> usize {
        self.commit();
        self.parse_committed();
        let mut taken = 0;
        for (j, file) in alt.files.iter().enumerate() {
            let Some(i) = self.files.iter().position(|f| f.path == file.path) else {
                continue;
            };
            let only = subtract(&self.readings[i].unread, &alt.readings[j].unread);
            let original = &self.originals[i];
            let ours = line_edits(original, &self.files[i].text);
            let (theirs, shared): (Vec<Edit>, Vec<Edit>) = line_edits(original, alt.text(j))
                .into_iter()
                .partition(|e| within(&only, &e.range) && !ours.iter().any(|o| touch(&o.range, &e.range)));
            if theirs.is_empty() {
                continue;
            }
            // The pass wove shared text otherwise (a monitor's table of
            // slots sized by what its reading saw): its edits would not
            // agree with ours, so none is taken, and the user is told.
            if shared.iter().any(|e| !ours.contains(e)) {
                self.skipped.push(format!(
                    "{}: {} edit{} in conditional branches only another reading sees not woven: \
                     the aspect wove the shared text differently in that reading",
                    file.path.display(),
                    theirs.len(),
                    if theirs.len() == 1 { "" } else { "s" }
                ));
                continue;
            }
            taken += theirs.len();
            let edits = shifted(&ours, theirs);
            let text = splice(&self.files[i].text, &edits);
            self.unparsed[i] = Some(Committed {
                text: Arc::from(text),
                edits: CommittedEdits::Splices(edits),
                keeps_declarations: false,
            });
        }
        taken
    }
}

/// The parts of `ranges` that none of `minus` covers.
fn subtract(ranges: &[Range<usize>], minus: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for r in ranges {
        let mut pieces = vec![r.clone()];
        for m in minus {
            pieces = pieces
                .into_iter()
                .flat_map(|p| {
                    if m.end <= p.start || p.end <= m.start {
                        return vec![p];
                    }
                    [p.start..m.start, m.end..p.end]
                        .into_iter()
                        .filter(|q| q.start < q.end)
                        .collect()
                })
                .collect();
        }
        out.extend(pieces);
    }
    out
}

fn within(ranges: &[Range<usize>], r: &Range<usize>) -> bool {
    ranges.iter().any(|u| u.start <= r.start && r.end <= u.end)
}

/// Two edit ranges overlap or meet (an insert at the end of a replacement
/// would be ordered by chance).
fn touch(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// The edits, one per changed run of lines, that turn `old` into `new`.
fn line_edits(old: &str, new: &str) -> Vec<Edit> {
    if old == new {
        return Vec::new();
    }
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let starts = |lines: &[&str]| {
        let mut s = vec![0];
        s.extend(lines.iter().scan(0, |at, l| {
            *at += l.len();
            Some(*at)
        }));
        s
    };
    let (os, ns) = (starts(&old_lines), starts(&new_lines));
    capture_diff_slices(Algorithm::Myers, &old_lines, &new_lines)
        .iter()
        .map(|op| op.as_tag_tuple())
        .filter(|(tag, _, _)| *tag != DiffTag::Equal)
        .map(|(_, o, n)| Edit {
            range: os[o.start]..os[o.end],
            text: new[ns[n.start]..ns[n.end]].to_string(),
        })
        .collect()
}

/// `theirs` (edits of the original text, touching none of `ours`) as edits
/// of the text `ours` made.
fn shifted(ours: &[Edit], theirs: Vec<Edit>) -> Vec<Edit> {
    theirs
        .into_iter()
        .map(|t| {
            let delta: isize = ours
                .iter()
                .filter(|o| o.range.end <= t.range.start)
                .map(|o| o.text.len() as isize - o.range.len() as isize)
                .sum();
            let at = |x: usize| x.checked_add_signed(delta).unwrap_or(x);
            Edit {
                range: at(t.range.start)..at(t.range.end),
                text: t.text,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtract_keeps_what_no_range_covers() {
        assert_eq!(
            subtract(&[0..10, 20..30], &[5..8, 25..40]),
            vec![0..5, 8..10, 20..25]
        );
        assert_eq!(subtract(&[0..10, 12..14], &[]), vec![0..10, 12..14]);
    }

    #[test]
    fn line_edits_rebuild_the_new_text_and_shift_past_ours() {
        let old = "a\nb\nc\nd\n";
        let new = "a\nX\nb\nc\nd\nY\n";
        let edits = line_edits(old, new);
        assert_eq!(splice(old, &edits), new);
        // Ours: a line after `a`; theirs: one after `c`.
        let ours = line_edits(old, "a\nX\nb\nc\nd\n");
        let theirs = line_edits(old, "a\nb\nc\nZ\nd\n");
        let both = shifted(&ours, theirs);
        assert_eq!(splice("a\nX\nb\nc\nd\n", &both), "a\nX\nb\nc\nZ\nd\n");
    }
}
