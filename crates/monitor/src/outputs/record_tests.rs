use super::*;

/// A record as the runtime writes it.
fn record(unit: &str, pid: i64, lines: &[&str]) -> Vec<u8> {
    let decls = format!("unit\t{unit}\n");
    let mut d = FORMAT.magic.to_vec();
    for v in [1u32, 0x0102_0304, 64, decls.len() as u32, 0, 0] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    for v in [pid, 1, 1_700_000_000, 0] {
        d.extend_from_slice(&v.to_le_bytes());
    }
    d.extend_from_slice(decls.as_bytes());
    for l in lines {
        d.extend_from_slice(l.as_bytes());
        d.push(b'\n');
    }
    d
}

const LINES: &[&str] = &[
    "f.return\t-3",
    "f.*out\t0.10000000000000001",
    "msg\t\"a\\\"b\\x01\\n\"",
    "big\t1e+300",
    "cut\t\"xxxx\"...",
    "none\tnull",
    "nan\t-nan",
];

fn pairs(lines: &[&str]) -> Vec<(String, String)> {
    lines
        .iter()
        .map(|l| {
            let (n, v) = l.split_once('\t').unwrap();
            (n.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn a_whole_record_reads_back_as_written() {
    let r = parse(&record("src/a.c", 42, LINES)).unwrap();
    assert_eq!((r.unit.as_str(), r.pid), ("src/a.c", 42));
    assert_eq!(r.values, pairs(LINES));
}

#[test]
fn every_truncation_is_an_error_or_ends_between_two_values() {
    let data = record("a.c", 7, LINES);
    let body = 64 + "unit\ta.c\n".len();
    for len in 0..data.len() {
        match parse(&data[..len]) {
            Ok(r) => {
                assert!(
                    len >= body && data[len - 1] == b'\n',
                    "cut at {len} read as whole"
                );
                assert_eq!(r.values, pairs(&LINES[..r.values.len()]), "cut at {len}");
            }
            Err(e) => {
                assert!(len < body || data[len - 1] != b'\n', "cut at {len}: {e}");
                assert!(e.offset <= len, "cut at {len}: {e}");
                let reason = &e.reason;
                assert!(reason.contains("truncated"), "cut at {len}: {e}");
            }
        }
    }
}

#[test]
fn garbled_records_are_errors_at_the_fault() {
    let at = |data: &[u8]| parse(data).unwrap_err();
    let body = 64 + "unit\ta.c\n".len();
    let mut bad = record("a.c", 7, &["x\t1"]);
    bad[0] = b'X';
    assert_eq!(at(&bad).offset, 0);
    let e = at(&record("a.c", -1, &[]));
    assert_eq!((e.offset, e.reason.contains("process id")), (32, true));
    let mut bad = record("a.c", 7, &[]);
    bad[64] = b'U';
    assert_eq!(at(&bad).offset, 64);
    for (line, offset, what) in [
        ("x\t1\t2", 3, "more than one tab"),
        ("x 1", 0, "without a tab"),
        ("\t1", 0, "without a name"),
        ("x\t12abc", 2, "neither a number"),
        ("x\t\"a\\q\"", 2, "neither a number"),
        ("x\t\"a", 2, "neither a number"),
        ("x\t\"a\"b", 2, "neither a number"),
        ("x\t1.", 2, "neither a number"),
        ("x\t\u{7f}", 2, "printable"),
    ] {
        let e = at(&record("a.c", 7, &["ok\t1", line]));
        assert_eq!(e.offset, body + 5 + offset, "{line:?}: {e}");
        assert!(e.reason.contains(what), "{line:?}: {e}");
    }
}

#[test]
fn a_directory_reads_in_unit_then_pid_order() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let e = read_dir(&missing).unwrap_err().to_string();
    assert_eq!(e, format!("{}: no such file or directory", missing.display()));
    assert_eq!(read_dir(dir.path()).unwrap(), vec![]);
    let sub = dir.path().join("run");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(dir.path().join("b_c.5.outputs"), record("b.c", 5, &["x\t1"])).unwrap();
    std::fs::write(sub.join("a_c.9.outputs"), record("a.c", 9, &["y\t2"])).unwrap();
    std::fs::write(dir.path().join("a_c.10.outputs"), record("a.c", 10, &[])).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a record").unwrap();
    let found: Vec<(String, u32)> = read_dir(dir.path())
        .unwrap()
        .into_iter()
        .map(|r| (r.unit, r.pid))
        .collect();
    assert_eq!(
        found,
        [
            ("a.c".to_string(), 9),
            ("a.c".to_string(), 10),
            ("b.c".to_string(), 5)
        ]
    );
    let broken = dir.path().join("c_c.1.outputs");
    let whole = record("c.c", 1, &["z\t3"]);
    std::fs::write(&broken, &whole[..whole.len() - 2]).unwrap();
    let e = read_dir(dir.path()).unwrap_err().to_string();
    let expected = format!("{}: at byte {}: truncated value line", broken.display(), 64 + 9);
    assert_eq!(e, expected);
}
