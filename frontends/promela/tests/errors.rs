//! Malformed or out-of-bounds Promela is refused with one-line
//! `FILE:LINE:COL: message` errors of the right kind.

use promela::ErrorKind;

fn err(text: &str) -> promela::PromelaError {
    match promela::parse_str(text, "m.pml") {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

#[test]
fn syntax_errors_name_line_and_column() {
    let e = err("byte x;\nactive proctype A() {\n  x = 1\n  x = 2 }");
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!((e.line(), e.column()), (Some(4), Some(3)), "{e}");
    assert!(e.to_string().starts_with("m.pml:4:3: "), "{e}");
    let e = err("active proctype A() { if :: skip }");
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::Syntax, Some(1), Some(34)),
        "{e}"
    );
    let e = err("byte x = ;");
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::Syntax, Some(1), Some(10)),
        "{e}"
    );
    let e = err("active proctype A() { x = $ }");
    assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
    let e = err("/* never closed\nactive proctype A() { skip }");
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::Syntax, Some(1), Some(1)),
        "{e}"
    );
}

#[test]
fn semantic_errors_name_the_culprit() {
    let e = err("active proctype A() {\n  y = 1 }");
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::Semantic, Some(2), Some(3)),
        "{e}"
    );
    assert!(e.message().contains("'y'"), "{e}");
    let e = err("active proctype A() { goto nowhere }");
    assert_eq!(e.kind(), ErrorKind::Semantic, "{e}");
    assert!(e.message().contains("nowhere"), "{e}");
    let e = err("chan c = [1] of {byte};\nactive proctype A() { c!1,2 }");
    assert_eq!((e.kind(), e.line()), (ErrorKind::Semantic, Some(2)), "{e}");
    let e = err("init { run Nope() }");
    assert_eq!(e.kind(), ErrorKind::Semantic, "{e}");
}

#[test]
fn unsupported_features_are_refused_clearly() {
    for text in [
        "#define N 3\nactive proctype A() { skip }",
        "never { skip }",
        "active proctype A() { timeout }",
        "chan c = [1] of {byte}; active proctype A() { c??1 }",
        "active proctype A() { chan l = [1] of {byte}; l!1 }",
    ] {
        let e = err(text);
        assert_eq!(e.kind(), ErrorKind::Unsupported, "{text}: {e}");
        assert!(e.line().is_some(), "{text}: {e}");
    }
}

#[test]
fn limits_are_enforced() {
    let e = err("active [300] proctype A() { skip }");
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert!(e.message().contains("255"), "{e}");
    let e = err("chan c = [1000] of {byte};\nactive proctype A() { c!1 }");
    assert_eq!((e.kind(), e.line()), (ErrorKind::Limit, Some(1)), "{e}");
    // unbounded creation: a process that keeps spawning
    let e = err("proctype B() { skip }\ninit { do :: run B() od }");
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
}
