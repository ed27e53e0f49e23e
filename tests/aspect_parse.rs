//! Parser tests: every construct of the report's figures and Appendix A,
//! and readable syntax errors.

use weft::aspect::ast::*;
use weft::aspect::parse_file;
use weft::diag::SourceFile;

fn parse(src: &str) -> Vec<AspectDef> {
    parse_file(&SourceFile::new("t.lara", src))
        .unwrap_or_else(|e| panic!("does not parse:\n{e}"))
        .aspects
}

fn error(src: &str) -> String {
    match parse_file(&SourceFile::new("t.lara", src)) {
        Ok(_) => panic!("parsed but should not:\n{src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn aspectdef_inputs_outputs() {
    let a = parse("aspectdef A\n input a=1, b; c = 'x'; end\n output r end\nend\naspectdef B end");
    assert_eq!(a.len(), 2);
    let names: Vec<_> = a[0].inputs.iter().map(|p| p.name.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert!(a[0].inputs[0].default.is_some() && a[0].inputs[1].default.is_none());
    assert_eq!(a[0].outputs[0].name.name, "r");
    assert_eq!(a[1].name.name, "B");
}

#[test]
fn select_chains_and_filters() {
    let a = parse(
        r#"aspectdef A
select function{"main"}.first_stmt end
P: select function{name==funcName}.loop{kind=="for", type != 'while'} end
select file.function.var{reference=='write'} end
end"#,
    );
    let selects: Vec<&Select> = a[0]
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Select(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(selects.len(), 3);
    let main = &selects[0].chain.steps[0];
    assert_eq!(main.kind.name, "function");
    assert_eq!(main.filter[0].attribute.name, "name");
    assert_eq!(selects[1].label.as_ref().unwrap().name, "P");
    let l = &selects[1].chain.steps[1];
    assert_eq!(l.filter.len(), 2);
    assert_eq!(l.filter[1].op, CmpOp::Ne);
    assert_eq!(selects[2].chain.steps.len(), 3);
}

#[test]
fn apply_to_and_condition() {
    let a = parse(
        "aspectdef A\nP: select function.param end\nF: select function.body.first_stmt end\napply to F::P\n  x = 1;\nend\ncondition $function.name != \"main\" &&\n !$param.is_array end\nend",
    );
    let Item::Apply(apply) = &a[0].items[2] else {
        panic!("no apply")
    };
    let labels: Vec<_> = apply.to.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(labels, ["F", "P"]);
    assert!(apply.condition.is_some());
    assert_eq!(apply.body.len(), 1);
}

fn apply_body(src: &str) -> Vec<Stmt> {
    let a = parse(&format!("aspectdef A\nselect loop end\napply\n{src}\nend\nend"));
    match &a[0].items[1] {
        Item::Apply(apply) => apply.body.clone(),
        _ => panic!("no apply"),
    }
}

#[test]
fn insert_forms_and_interpolation() {
    let body = apply_body(
        "$loop.insert before 'int c_[[id]] = 0;';\ninsert after \"x\";\n$loop.insert replace %{a[[ $loop.rank ]]b}%\n",
    );
    assert_eq!(body.len(), 3);
    let Stmt::Insert {
        target,
        position,
        code,
        ..
    } = &body[0]
    else {
        panic!()
    };
    assert_eq!(target.as_ref().unwrap().name, "loop");
    assert_eq!(*position, Position::Before);
    let Token::Str(lit) = &code.tokens[0] else {
        panic!()
    };
    assert!(
        matches!(&lit.pieces[..], [Piece::Text(a), Piece::Interpolation(_), Piece::Text(b)] if a == "int c_" && b == " = 0;")
    );
    let Stmt::Insert {
        target: None,
        position: Position::After,
        ..
    } = &body[1]
    else {
        panic!()
    };
    let Stmt::Insert {
        position: Position::Replace,
        code,
        ..
    } = &body[2]
    else {
        panic!()
    };
    assert!(matches!(&code.tokens[0], Token::Code(l) if l.pieces.len() == 3));
}

#[test]
fn perform_def_call_and_method_form() {
    let body = apply_body(
        "$program.SingleDeclarator();\n$program.perform NormalizeReturn();\nperform Unroll(2);\ndef name = 'x';\ncall res : B(1, 'a');\ncall C();",
    );
    assert!(
        matches!(&body[0], Stmt::Perform { target: Some(t), action, args, .. } if t.name == "program" && action.name == "SingleDeclarator" && args.is_empty())
    );
    assert!(matches!(&body[1], Stmt::Perform { action, .. } if action.name == "NormalizeReturn"));
    assert!(matches!(&body[2], Stmt::Perform { target: None, args, .. } if args.len() == 1));
    assert!(matches!(&body[3], Stmt::Def { attribute, .. } if attribute.name == "name"));
    assert!(
        matches!(&body[4], Stmt::Call { label: Some(l), aspect, args, .. } if l.name == "res" && aspect.name == "B" && args.len() == 2)
    );
    assert!(matches!(&body[5], Stmt::Call { label: None, .. }));
}

#[test]
fn js_statements_without_braces() {
    let body = apply_body(
        "if(onlyPrimitives)\n  if(!$param.is_primitive)\n    continue;\nfor(funcVar in report) { x++; }\nfor (var i in a) if (a[i]) b.push(i); else c--;\nwhile (i < 3) i += 1;\nfor x in [1,2] { }\nif x > 1 { } else if y { }\nbreak;",
    );
    assert!(matches!(&body[0], Stmt::If { then, .. } if matches!(**then, Stmt::If { .. })));
    assert!(matches!(&body[1], Stmt::ForKeys { var, .. } if var.name == "funcVar"));
    assert!(
        matches!(&body[2], Stmt::ForKeys { body, .. } if matches!(**body, Stmt::If { otherwise: Some(_), .. }))
    );
    assert!(matches!(&body[3], Stmt::While { .. }));
    assert!(matches!(&body[4], Stmt::ForValues { .. }));
    assert!(matches!(
        &body[5],
        Stmt::If {
            otherwise: Some(_),
            ..
        }
    ));
    assert!(matches!(&body[6], Stmt::Expr { terminated: true, .. }));
}

#[test]
fn lara_statements_inside_script_blocks() {
    let body = apply_body("if (c) { $loop.insert after 'x'; call B(); }");
    let Stmt::If { then, .. } = &body[0] else { panic!() };
    let Stmt::Block(inner) = &**then else { panic!() };
    assert!(matches!(inner[0], Stmt::Insert { .. }) && matches!(inner[1], Stmt::Call { .. }));
}

#[test]
fn functions_objects_new_and_imports() {
    let parsed = parse_file(&SourceFile::new(
        "t.lara",
        "import \"lib/common.lara\";\naspectdef A\nvar o = new LaraObject();\nvar f = function (a, b) { return a + b; };\nvar m = {};\nvar n = #{ a: 1 };\nend",
    ))
    .unwrap();
    assert_eq!(parsed.imports[0].0, "lib/common.lara");
    let items = &parsed.aspects[0].items;
    let Item::Stmt(Stmt::Expr { expr, .. }) = &items[1] else {
        panic!()
    };
    assert!(
        expr.tokens
            .iter()
            .any(|t| matches!(t, Token::Function { params, .. } if params.len() == 2))
    );
    let Item::Stmt(Stmt::Expr { expr, .. }) = &items[2] else {
        panic!()
    };
    assert!(matches!(
        expr.tokens.last(),
        Some(Token::Group {
            kind: GroupKind::Object,
            ..
        })
    ));
}

#[test]
fn comments_are_ignored() {
    let a = parse("// lead\naspectdef A /* x */\n select loop end // y\n apply end\nend");
    assert_eq!(a[0].items.len(), 2);
}

#[test]
fn errors_have_location_caret_and_words() {
    let e = error("aspectdef A\nselect loop\napply end\nend");
    assert!(e.contains("t.lara:3:1"), "{e}");
    assert!(e.contains("expected"), "{e}");
    assert!(e.contains("found `apply`"), "{e}");
    assert!(e.contains('^'), "{e}");

    let e = error("aspectdef A\n  select loop end\n  apply\n    x = (1;\n  end\nend");
    assert!(
        e.contains("t.lara:4:11") && e.contains("found `;`") && e.contains("an expression"),
        "{e}"
    );

    let e = error("aspectdef\nend");
    assert!(e.contains("a name"), "{e}");

    let e = error("aspectdef A\ninsert before 'x'");
    assert!(e.contains("the end of the file"), "{e}");
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let src = format!("aspectdef A\nx = {}1{};\nend", "(".repeat(5000), ")".repeat(5000));
    assert!(error(&src).contains("nested more than"));
}

#[test]
fn bad_interpolation_is_reported() {
    let e = error("aspectdef A\nselect loop end\napply insert before 'a [[ } ]] b'; end\nend");
    assert!(e.contains("t.lara:3:27"), "{e}");
}
