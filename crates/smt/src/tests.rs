use super::*;

fn z3() -> Solver {
    Solver::find(Some(Kind::Z3), Duration::from_secs(5)).expect("z3 (scripts/install-deps.sh installs it)")
}

#[test]
fn sat_with_model_values() {
    let mut q = Query::new(Some("QF_LIA"));
    q.declare("x", Sort::Int).declare("y", Sort::Int);
    q.assert("(= (+ x y) 10)")
        .assert("(= (- x y) 4)")
        .assert("(> x 0)");
    q.value("x").value("y").value("(- y)");
    let Answer::Sat(m) = z3().check(&q).unwrap() else {
        panic!("expected sat")
    };
    assert_eq!(m.int("x"), Some(7));
    assert_eq!(m.int("y"), Some(3));
    assert_eq!(m.int("(- y)"), Some(-3));
}

#[test]
fn unsat_and_validity() {
    let mut q = Query::new(Some("QF_LIA"));
    q.declare("x", Sort::Int);
    q.assert("(> x 0)").assert("(< x 1)");
    assert_eq!(z3().check(&q).unwrap(), Answer::Unsat);

    // x > 0 → x + 1 > 0 over the integers, not over 8-bit vectors.
    let mut q = Query::new(Some("LIA"));
    q.declare("x", Sort::Int);
    assert_eq!(
        z3().valid(&q, "(=> (> x 0) (> (+ x 1) 0))").unwrap(),
        Answer::Unsat
    );
    let mut q = Query::new(Some("QF_BV"));
    q.declare("b", Sort::BitVec(8)).value("b");
    let Answer::Sat(m) = z3()
        .valid(&q, "(=> (bvsgt b #x00) (bvsgt (bvadd b #x01) #x00))")
        .unwrap()
    else {
        panic!("expected a counterexample")
    };
    assert_eq!(m.int("b"), Some(127));
}

#[test]
fn quantifiers_are_accepted() {
    let q = Query::new(None);
    let t = "(forall ((x Int)) (exists ((y Int)) (> y x)))";
    assert_eq!(z3().valid(&q, t).unwrap(), Answer::Unsat);
}

#[test]
fn timeout_is_unknown() {
    // Non-linear integer arithmetic on a hard instance, with 1 ms.
    let s = Solver::find(Some(Kind::Z3), Duration::from_millis(1)).unwrap();
    let mut q = Query::new(None);
    for v in ["a", "b", "c", "n"] {
        q.declare(v, Sort::Int);
    }
    q.assert("(and (> a 0) (> b 0) (> c 0) (> n 2))");
    q.assert("(= (+ (* a a a a a) (* b b b b b)) (* c c c c c))");
    match s.check(&q).unwrap() {
        Answer::Unknown(reason) => assert!(!reason.is_empty()),
        other => panic!("expected unknown, got {other:?}"),
    }
}

#[test]
fn malformed_query_is_an_error() {
    let mut q = Query::new(None);
    q.assert("(> undeclared 0)");
    let e = z3().check(&q).unwrap_err();
    assert!(matches!(e, Error::Solver { .. }), "{e}");
}

#[test]
fn missing_solver_is_a_clear_error() {
    let s = Solver::at(Kind::Z3, "/nonexistent/z3", Duration::from_secs(1));
    let e = s.check(&Query::new(None)).unwrap_err();
    assert!(e.to_string().contains("no SMT solver found"), "{e}");
}

#[test]
fn sexp_round_trip() {
    let s = Sexp::parse("((x 7) ((- y) (- 3)) (b #b1000))").unwrap();
    assert_eq!(s.to_string(), "((x 7) ((- y) (- 3)) (b #b1000))");
    let items = s.list().unwrap();
    assert_eq!(items[1].list().unwrap()[1].as_int(), Some(-3));
    assert_eq!(items[2].list().unwrap()[1].as_int(), Some(8));
}

#[test]
fn many_queries_in_one_process() {
    let mut a = Query::new(Some("QF_LIA"));
    a.declare("x", Sort::Int).assert("(> x 0)");
    let mut b = Query::new(Some("QF_LIA"));
    b.declare("x", Sort::Int).assert("(and (> x 0) (< x 1))");
    let mut c = Query::new(Some("QF_LIA"));
    c.declare("y", Sort::Int).assert("(= (* 2 y) 7)");
    let answers = z3().check_many(&[a, b, c]).unwrap();
    assert_eq!(
        answers,
        vec![Answer::Sat(Model::default()), Answer::Unsat, Answer::Unsat]
    );
    assert_eq!(z3().check_many(&[]).unwrap(), vec![]);
}

/// `y*y - 2*x + y` is kept by `y += 1; x += y` modulo 2^32 (a ring
/// identity): bit-blasting the products runs out of time, sums of
/// monomials see it at once, alone and among other queries.
#[test]
fn polynomial_identities_over_bit_vectors() {
    let s = |x: &str, y: &str| {
        format!("(= (bvadd (bvsub (bvmul {y} {y}) (bvmul #x00000002 {x})) {y}) #x00000000)")
    };
    let identity = || {
        let mut q = Query::new(Some("QF_BV"));
        q.declare("x", Sort::BitVec(32)).declare("y", Sort::BitVec(32));
        q.assert(s("x", "y"));
        q.assert(format!(
            "(not {})",
            s("(bvadd (bvadd y #x00000001) x)", "(bvadd y #x00000001)")
        ));
        q.polynomial = true;
        q
    };
    let mut nonempty = Query::new(Some("QF_BV"));
    nonempty
        .declare("x", Sort::BitVec(32))
        .declare("y", Sort::BitVec(32));
    nonempty.assert(s("x", "y"));
    assert_eq!(z3().check(&identity()).unwrap(), Answer::Unsat);
    assert_eq!(
        z3().check_many(&[identity(), nonempty, identity()]).unwrap(),
        vec![Answer::Unsat, Answer::Sat(Model::default()), Answer::Unsat]
    );
}

#[test]
fn quantifier_elimination() {
    let mut q = Query::new(None);
    q.declare("x", Sort::Int).declare("n", Sort::Int);
    q.assert("(forall ((k Int)) (=> (>= k 0) (> (+ x k) 0)))");
    let goals = z3().eliminate(&q).unwrap();
    assert_eq!(goals.len(), 1);
    assert_eq!(
        goals[0].iter().map(|f| f.to_string()).collect::<Vec<_>>(),
        ["(not (<= x 0))"]
    );
    let mut q = Query::new(None);
    q.declare("x", Sort::Int).declare("n", Sort::Int);
    q.assert("(forall ((k Int)) (=> (>= k 0) (< (+ x k) n)))");
    assert!(z3().eliminate(&q).unwrap().is_empty(), "false: no goal");
}

#[test]
fn cvc5_gets_its_limit_on_the_command_line() {
    // A stand-in for cvc5: answers sat when called incrementally with a
    // per-query limit and no :timeout option in the script, after an
    // `unsupported` line that must be ignored.
    let dir = std::env::temp_dir().join(format!("weft-smt-cvc5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("cvc5");
    std::fs::write(
        &fake,
        "#!/bin/sh\ncase \"$*\" in *--incremental*--tlimit-per=2000*) ;; *) echo bad-args; exit 0;; esac\n\
         if grep -q ':timeout'; then echo bad-script; else echo unsupported; echo sat; fi\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let s = Solver::at(Kind::Cvc5, &fake, Duration::from_secs(2));
    let mut q = Query::new(None);
    q.declare("x", Sort::Int).assert("(> x 0)");
    // Another test's thread may fork while the script is still open for
    // writing; its child then holds it until it execs, and running the
    // script meanwhile fails with ETXTBSY. That passes: try again.
    let busy = |r: &Result<Answer, Error>| matches!(r, Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::ExecutableFileBusy);
    let mut answer = s.check(&q);
    for _ in 0..50 {
        if !busy(&answer) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        answer = s.check(&q);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(answer.unwrap(), Answer::Sat(Model::default()));
}
