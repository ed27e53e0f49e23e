//! Meta programs compiled and run: with `WEFT_REV=n` each must behave
//! exactly as the tree with diff n applied, built on its own.

use std::path::{Path, PathBuf};
use std::process::Command;

use weft_meta::{Options, build};

/// A unified diff of `prog.c` from `old` to `new`, as `git diff` writes it.
fn diff(old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .header("a/prog.c", "b/prog.c")
        .to_string()
}

/// `text` with each `(from, to)` replaced once (each must occur).
fn edited(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in edits {
        assert!(out.contains(from), "`{from}` is not in the program");
        out = out.replacen(from, to, 1);
    }
    out
}

fn compile(source: &Path, exe: &Path) {
    let out = Command::new("gcc")
        .args(["-std=gnu99", "-Wall", "-Werror", "-o"])
        .arg(exe)
        .arg(source)
        .output()
        .expect("gcc runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn run(exe: &Path, args: &[&str], env: &[(&str, String)]) -> (i32, String, String) {
    let out = Command::new(exe)
        .args(args)
        .env_remove("WEFT_REV")
        .envs(env.iter().map(|(k, v)| (k, v.as_str())))
        .output()
        .expect("the program runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Builds the meta program of `original` and `revisions`, compiles it and
/// each revision alone, and checks every revision on every input; returns
/// the meta text and the meta executable (in `dir`).
fn check_equivalence(
    dir: &Path,
    original: &str,
    revisions: &[String],
    inputs: &[&[&str]],
) -> (String, PathBuf) {
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("prog.c"), original).unwrap();
    let mut patches = Vec::new();
    for (i, rev) in revisions.iter().enumerate() {
        let p = dir.join(format!("p{}.diff", i + 1));
        std::fs::write(&p, diff(original, rev)).unwrap();
        patches.push(p);
    }
    let meta = build(&tree, &patches, &Options::default()).unwrap();
    let text = meta.files[Path::new("prog.c")].clone();
    std::fs::write(dir.join("meta.c"), &text).unwrap();
    let meta_exe = dir.join("meta");
    compile(&dir.join("meta.c"), &meta_exe);
    for (n, source) in std::iter::once(original)
        .chain(revisions.iter().map(String::as_str))
        .enumerate()
    {
        std::fs::write(dir.join(format!("rev{n}.c")), source).unwrap();
        let alone = dir.join(format!("rev{n}"));
        compile(&dir.join(format!("rev{n}.c")), &alone);
        for args in inputs {
            let want = run(&alone, args, &[]);
            let got = run(&meta_exe, args, &[("WEFT_REV", n.to_string())]);
            assert_eq!(got, want, "revision {n} on {args:?}\n{text}");
        }
    }
    (text, meta_exe)
}

const SMALLEST: &str = r#"#include <stdio.h>
#include <stdlib.h>

/* The smallest of the numbers on the command line. */
static int smallest(int n, int *v)
{
    int i, m = v[0];
    for (i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

int main(int argc, char **argv)
{
    int v[16], n = 0, i;
    for (i = 1; i < argc && n < 16; i++) {
        if (argv[i][0] == 'x')
            continue;
        if (argv[i][0] == 'q')
            break;
        v[n++] = atoi(argv[i]);
    }
    if (n == 0)
        return 2;
    printf("%d\n", smallest(n, v));
    return 0;
}
"#;

const INPUTS: &[&[&str]] = &[
    &["3", "1", "2"],
    &[],
    &["5"],
    &["-1", "-7", "4"],
    &["4", "x", "2", "q", "1"],
    &["x"],
];

fn smallest_revisions() -> Vec<String> {
    vec![
        // 1: the right comparison (statement level).
        edited(SMALLEST, &[("if (v[i] > m)", "if (v[i] < m)")]),
        // 2: a declaration used after the change: function level.
        edited(
            SMALLEST,
            &[
                (
                    "    int i, m = v[0];\n",
                    "    int i, m = v[0];\n    int best = v[0];\n",
                ),
                (
                    "            m = v[i];\n    return m;",
                    "            m = v[i], best = m;\n    return best < m ? best : m;",
                ),
            ],
        ),
        // 3: a different exit for no input (overlaps nothing else).
        edited(
            SMALLEST,
            &[("        return 2;", "        puts(\"none\"), exit(1);")],
        ),
        // 4: the same text as 1, to share its branch.
        edited(SMALLEST, &[("if (v[i] > m)", "if (v[i] < m)")]),
        // 5: break and continue inside a changed region keep their loop.
        edited(
            SMALLEST,
            &[(
                "        if (argv[i][0] == 'q')\n            break;",
                "        if (argv[i][0] == 'q' || argv[i][0] == 'Q')\n            break;\n        if (argv[i][0] == 'y')\n            continue;",
            )],
        ),
        // 6: overlaps revision 1's lines with another fix.
        edited(
            SMALLEST,
            &[(
                "        if (v[i] > m)\n            m = v[i];",
                "        if (!(v[i] >= m))\n            m = v[i];",
            )],
        ),
    ]
}

#[test]
fn every_revision_behaves_as_its_tree() {
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), SMALLEST, &smallest_revisions(), INPUTS);
    // Revision 4's text is revision 1's: one branch serves both.
    assert!(
        text.contains("case 1: case 4:") || text.contains("== 1 || weft_meta_rev(0) == 4"),
        "{text}"
    );
    // Revision 2's declaration and all its uses are inside one branch.
    assert!(
        text.contains("} else if (weft_meta_rev(0) == 2) { /* weft site 0 */\n    int best = v[0];"),
        "{text}"
    );
}

#[test]
fn a_declaration_used_after_the_change_moves_it_to_function_level() {
    let revisions = vec![edited(
        SMALLEST,
        &[("    int i, m = v[0];", "    int i, m = v[n - 1];")],
    )];
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), SMALLEST, &revisions, INPUTS);
    assert!(
        text.contains("static int smallest__weft_rev1(int n, int *v)"),
        "{text}"
    );
    assert!(
        text.contains("    default:\n        return smallest__weft_rev0(n, v);"),
        "{text}"
    );
}

#[test]
fn file_scope_additions_are_kept_and_changed_macros_get_a_copy_per_revision() {
    let original = SMALLEST
        .replace(
            "#include <stdlib.h>\n",
            "#include <stdlib.h>\n#define BIGGER(a, b) ((a) > (b))\n",
        )
        .replace("if (v[i] > m)", "if (BIGGER(v[i], m))");
    let revisions = vec![
        original.replace(
            "#define BIGGER(a, b) ((a) > (b))\n",
            "static int calls;\n#define BIGGER(a, b) (calls++, (a) < (b))\n",
        ),
        original.replace(
            "#include <stdio.h>\n",
            "#include <stdio.h>\n#include <string.h>\n",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), &original, &revisions, INPUTS);
    assert!(text.contains("static int calls;\n"), "{text}");
    assert!(
        text.contains("#define BIGGER__weft_rev0(a, b) ((a) > (b))\n")
            && text.contains("#define BIGGER__weft_rev1(a, b) (calls++, (a) < (b))\n"),
        "{text}"
    );
    assert!(text.contains("if (BIGGER__weft_rev1(v[i], m))"), "{text}");
}

#[test]
fn sites_report_levels_and_fallbacks() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    std::fs::write(tree.join("prog.c"), SMALLEST).unwrap();
    let patches: Vec<PathBuf> = smallest_revisions()
        .iter()
        .enumerate()
        .map(|(i, rev)| {
            let p = dir.path().join(format!("p{i}.diff"));
            std::fs::write(&p, diff(SMALLEST, rev)).unwrap();
            p
        })
        .collect();
    let meta = build(&tree, &patches, &Options::default()).unwrap();
    let levels: Vec<(&str, usize, Option<&str>)> = meta
        .sites
        .iter()
        .map(|s| (s.level, s.first_line, s.fallback.as_deref()))
        .collect();
    assert_eq!(
        levels,
        [
            // Revision 2's declaration grows the site over its uses.
            ("statements", 8, None),
            ("statements", 20, None),
            ("statements", 24, None),
        ]
    );
    assert_eq!(meta.sites[0].branches, [vec![1, 4], vec![2], vec![6]]);
}

#[test]
fn msv_switches_pick_one_revision_and_bad_values_stop_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (_, meta) = check_equivalence(
        dir.path(),
        SMALLEST,
        &smallest_revisions()[..3],
        &[&["3", "1", "2"]],
    );
    let (status, out, _) = run(&meta, &["3", "1", "2"], &[("__SWITCH0", "1".into())]);
    assert_eq!((status, out.as_str()), (0, "1\n"));
    // Site 1 alone at revision 3: the site-0 fix stays off.
    let (status, out, _) = run(&meta, &[], &[("__SWITCH1", "3".into())]);
    assert_eq!((status, out.as_str()), (1, "none\n"));
    let (status, _, err) = run(
        &meta,
        &[],
        &[("__SWITCH0", "1".into()), ("__SWITCH1", "3".into())],
    );
    assert_eq!(status, 125);
    assert!(err.contains("a run has one revision"), "{err}");
    for bad in ["4", "-1", "two", ""] {
        let (status, _, err) = run(&meta, &["1"], &[("WEFT_REV", bad.into())]);
        assert_eq!(status, 125, "WEFT_REV={bad}");
        assert!(err.contains("is not a revision (0 to 3)"), "{err}");
    }
}

const LABELS: &str = r#"#include <stdio.h>

static int classify(int x)
{
    int r = 0;
    switch (x) {
    case 1:
        r = 10;
        break;
    case 2:
        r = 20;
        break;
    default:
        r = -1;
    }
    if (r < 0)
        goto out;
    r++;
out:
    return r;
}

int main(void)
{
    int i;
    for (i = -1; i < 5; i++)
        printf("%d %d\n", i, classify(i));
    return 0;
}
"#;

#[test]
fn a_new_case_switches_the_whole_switch_statement() {
    let revision = edited(
        LABELS,
        &[(
            "    default:\n",
            "    case 3:\n        r = 30;\n        break;\n    default:\n",
        )],
    );
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), LABELS, &[revision], &[&[]]);
    assert_eq!(text.matches("case 3:").count(), 1, "{text}");
    assert!(
        text.contains("if (weft_meta_rev(0) == 1) { /* weft site 0 */\n    switch (x) {"),
        "{text}"
    );
}

#[test]
fn a_label_in_two_branches_moves_the_site_to_function_level() {
    let revisions = vec![
        edited(
            LABELS,
            &[("    r++;\nout:\n", "    r += 2;\nout:\n    r *= 2;\n")],
        ),
        edited(LABELS, &[("    r++;\nout:\n", "out:\n")]),
    ];
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), LABELS, &revisions, &[&[]]);
    assert_eq!(text.matches("out:").count(), 3, "{text}");
    assert!(text.contains("static int classify__weft_rev2(int x)"), "{text}");
}

fn build_error(original: &str, revision: &str, file: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    std::fs::write(tree.join(file), original).unwrap();
    let p = dir.path().join("p.diff");
    let text = similar::TextDiff::from_lines(original, revision)
        .unified_diff()
        .header(&format!("a/{file}"), &format!("b/{file}"))
        .to_string();
    std::fs::write(&p, text).unwrap();
    format!("{:#}", build(&tree, &[p], &Options::default()).unwrap_err())
}

#[test]
fn changes_that_cannot_be_switched_are_refused_with_their_place() {
    let err = build_error(
        SMALLEST,
        &edited(SMALLEST, &[("    return m;", "#define M m\n    return M;")]),
        "prog.c",
    );
    assert!(
        err.contains("prog.c (revision 1):") && err.contains("`#define` in a changed region"),
        "{err}"
    );
    let guarded = "#if LIMIT > 2\n#include <stdio.h>\n#endif\nint main(void) { return 0; }\n";
    let err = build_error(guarded, &guarded.replace("LIMIT > 2", "LIMIT > 3"), "prog.c");
    assert!(
        err.contains("prog.c:1: revision 1 changes a conditional directive at file scope"),
        "{err}"
    );
    let header = "static int f(int x)\n{\n    return x;\n}\n";
    let err = build_error(header, &header.replace("return x;", "return x + 1;"), "prog.h");
    assert!(
        err.contains("prog.h:3: a patch changes code in this header"),
        "{err}"
    );
    let err = build_error(
        "int main(void)\n{\n    return 0;\n}\n",
        "int main(int argc, char **argv)\n{\n    return argc > 9 && argv;\n}\n",
        "prog.c",
    );
    assert!(err.contains("revisions define `main` differently"), "{err}");
}

const RELEASE: &str = r#"#include <stdio.h>
#include <stdlib.h>

#define release(p) free(p)

int main(int argc, char **argv)
{
    char *p = malloc(4);
    release(p);
    printf("%d %s\n", argc, p == NULL ? "cleared" : "kept");
    (void) argv;
    return 0;
}
"#;

#[test]
fn a_macro_turned_into_a_statement_is_switched_at_its_uses() {
    let revisions = vec![RELEASE.replace(
        "#define release(p) free(p)",
        "#define release(p) do { free(p); (p) = NULL; } while (0)",
    )];
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), RELEASE, &revisions, &[&[], &["x"]]);
    assert!(
        text.contains("#define release__weft_rev1(p) do { free(p); (p) = NULL; } while (0)"),
        "{text}"
    );
    assert!(text.contains("    release__weft_rev1(p);"), "{text}");
}

#[test]
fn a_macro_body_keeps_its_precedence_in_every_revision() {
    let original = "#include <stdio.h>\n#define K 1+1\nint main(void)\n{\n    printf(\"%d\\n\", 2*K);\n    return 0;\n}\n";
    let revision = original.replace("#define K 1+1", "#define K 2+1");
    let dir = tempfile::tempdir().unwrap();
    let (_, meta) = check_equivalence(dir.path(), original, &[revision], &[&[]]);
    for (rev, printed) in [("0", "3\n"), ("1", "5\n")] {
        assert_eq!(run(&meta, &[], &[("WEFT_REV", rev.into())]).1, printed);
    }
}

/// A small deterministic generator (xorshift), so the programs below are
/// the same on every run.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A program with the file-scope things whose meaning a meta program could
/// change: an object-like macro and a function-like macro with operator
/// precedence traps (no parentheses), a global array and its size, a static
/// with an initializer, a table of function pointers, a macro tested by
/// `#if`, and a function whose signature a revision may change. Each value
/// is picked by `dice`.
fn generated(dice: &mut Dice) -> String {
    let mut pick = |options: &[&str]| -> String { options[dice.below(options.len())].to_string() };
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
#define K {k}
#define TWICE(x) {twice}
#define MODE {mode}
static int table[{size}] = {{ {init} }};
static int calls = {calls};
int scale = {scale};
static int inc(int v) {{ calls++; return v + 1; }}
static int dec(int v) {{ calls++; return v - 1; }}
static int (*ops[2])(int) = {{ {ops} }};
static int mix({mix_params})
{{
    return {mix_body};
}}
int main(int argc, char **argv)
{{
    int i, sum = 0;
    int n = argc > 1 ? atoi(argv[1]) : 3;
    for (i = 0; i < (int) (sizeof table / sizeof table[0]); i++)
        sum += table[i] * K;
#if MODE > 1
    sum += TWICE(n + 1);
#else
    sum -= TWICE(n - 1);
#endif
    sum = ops[n & 1](sum) * scale;
    printf("%d %d %d %d\n", sum, calls, mix({mix_args}), 10 / K);
    return sum & 7;
}}
"#,
        k = pick(&["1+1", "2+1", "3-1", "2*2"]),
        twice = pick(&["x+x", "2*x", "x*x", "(x)<<1"]),
        mode = pick(&["1", "2"]),
        size = pick(&["3", "4"]),
        init = pick(&["1, 2, 3", "3, 2", "5"]),
        calls = pick(&["0", "5"]),
        scale = pick(&["1", "2", "-1"]),
        ops = pick(&["inc, dec", "dec, inc"]),
        mix_params = pick(&["int a, int b", "int a"]),
        mix_body = "a * K",
        mix_args = "n",
    )
}

/// A generated program with one or more of its values changed, and any
/// call of `mix` kept in step with its parameters.
fn mutated(original: &str, dice: &mut Dice) -> String {
    let mut text = original.to_string();
    for _ in 0..1 + dice.below(3) {
        let other = generated(dice);
        // Take one line of the other program where the two differ.
        let differing: Vec<(&str, &str)> = text.lines().zip(other.lines()).filter(|(a, b)| a != b).collect();
        if !differing.is_empty() {
            let (from, to) = differing[dice.below(differing.len())];
            text = text.replacen(&format!("{from}\n"), &format!("{to}\n"), 1);
        }
    }
    in_step(text)
}

/// `text` with the call of `mix` given as many arguments as it takes.
fn in_step(text: String) -> String {
    match text.contains("int a, int b") {
        true => text.replace("mix(n)", "mix(n, 1)"),
        false => text.replace("mix(n, 1)", "mix(n)"),
    }
}

#[test]
fn generated_programs_behave_in_the_meta_program_as_each_revision_alone() {
    let mut dice = Dice(0x5eed_f00d);
    let mut changed = 0;
    for _ in 0..7 {
        let original = in_step(generated(&mut dice));
        let revisions: Vec<String> = (0..3)
            .map(|_| mutated(&original, &mut dice))
            .filter(|r| *r != original)
            .collect();
        if revisions.is_empty() {
            continue;
        }
        changed += revisions.len();
        let dir = tempfile::tempdir().unwrap();
        let inputs: &[&[&str]] = &[&[], &["0"], &["5"], &["-4"]];
        check_equivalence(dir.path(), &original, &revisions, inputs);
    }
    assert!(changed >= 15, "only {changed} revisions were generated");
}

/// Old-style definitions, with an implicit `int` result (`main(argc, argv)
/// int argc; …`, `static cap(v) …`) or a pointer result, whose locals and
/// parameters are named like a global the revisions define differently.
const OLD_STYLE: &str = r#"#pragma GCC diagnostic ignored "-Wimplicit-int"
#include <stdio.h>
#include <stdlib.h>

static int limit = 10;

static cap(v) int v;
{
    return v > limit ? limit : v;
}

static int clamp(v, limit) int v; int limit;
{
    return v > limit ? limit : v;
}

static char *label(n) int n;
{
    static char buf[32];
    int limit = n % 7;
    sprintf(buf, "<%d>", limit);
    return buf;
}

main(argc, argv) int argc; char *argv[];
{
    int limit = argc;
    int i, total = 0;
    for (i = 1; i < argc; i++)
        total += clamp(cap(atoi(argv[i])), limit * 4);
    printf("%d %s %d\n", total, label(total), limit);
    return 0;
}
"#;

#[test]
fn old_style_definitions_keep_their_locals_and_parameters() {
    let revisions = vec![
        edited(OLD_STYLE, &[("static int limit = 10;", "static int limit = 5;")]),
        edited(
            OLD_STYLE,
            &[("total, label(total), limit);", "total, label(total), limit + 1);")],
        ),
        edited(OLD_STYLE, &[("int limit = n % 7;", "int limit = n % 5;")]),
    ];
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = check_equivalence(dir.path(), OLD_STYLE, &revisions, INPUTS);
    for local in [
        "    int limit = argc;",
        "static int clamp(v, limit) int v; int limit;",
    ] {
        assert!(text.contains(local), "{text}");
    }
    assert!(text.contains("limit__weft_rev1 = 5;"), "{text}");
}

#[test]
fn a_body_not_read_as_a_function_is_refused_not_renamed() {
    // No type before `*first(s)`: the front end reads no function there, so
    // its body's `limit` is not known to be a local.
    let original =
        "static int limit = 3;\n\n*first(s) char **s;\n{\n    int limit = 1;\n    return s[limit];\n}\n";
    let revision = edited(
        original,
        &[
            ("static int limit = 3;", "static int limit = 4;"),
            ("int limit = 1;", "int limit = 0;"),
        ],
    );
    let err = build_error(original, &revision, "prog.c");
    assert!(
        err.contains("prog.c:4: file-scope code not understood ({)"),
        "{err}"
    );
}
