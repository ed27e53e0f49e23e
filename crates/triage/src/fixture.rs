//! A hand-built table for the tests of the report, its printing and
//! `--ask`: seven revisions of a program meant to print |n|.

use crate::inputs::{Input, Source};
use crate::table::{Aspect, Observation, Table};

/// Revisions 0 and 5 print n, 1 and 2 |n|, 3 max(n, 0); 4 aborts on 0;
/// 6 hangs on 7. Inputs: 5, -3, 0, 7.
pub fn table() -> Table {
    let run = |status: &str, stdout: &str| Observation {
        status: Some(status.into()),
        stdout: Some(stdout.into()),
        ..Observation::default()
    };
    let ok = |text: &str| run("exit 0", text);
    let rows = vec![
        vec![ok("5\n"), ok("-3\n"), ok("0\n"), ok("7\n")],
        vec![ok("5\n"), ok("3\n"), ok("0\n"), ok("7\n")],
        vec![ok("5\n"), ok("3\n"), ok("0\n"), ok("7\n")],
        vec![ok("5\n"), ok("0\n"), ok("0\n"), ok("7\n")],
        vec![ok("5\n"), ok("3\n"), run("signal 6", ""), ok("7\n")],
        vec![ok("5\n"), ok("-3\n"), ok("0\n"), ok("7\n")],
        vec![ok("5\n"), ok("3\n"), ok("0\n"), run("timeout", "")],
    ];
    let inputs = ["a-five", "b-minus3", "c-zero", "d-seven"]
        .map(|name| Input {
            name: name.into(),
            source: Source::Test(format!("./abs < {name}")),
        })
        .to_vec();
    let mut table = Table::new(
        (0..7).collect(),
        inputs,
        vec![Aspect::Status, Aspect::Stdout],
        rows,
    );
    for text in ["5\n", "-3\n", "3\n", "0\n", "7\n", ""] {
        table.texts.insert(text.into(), text.as_bytes().to_vec());
    }
    table
}
