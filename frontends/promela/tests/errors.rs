//! Malformed or out-of-bounds Promela is refused with one-line
//! `FILE:LINE:COL: message` errors of the right kind.

use promela::ErrorKind;

fn err(text: &str) -> promela::PromelaError {
    frontend_testkit::load_error(promela::parse_str, text, "m.pml")
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

/// The first model error met exploring `text` (breadth-first), if any.
fn first_model_error(text: &str) -> Option<String> {
    use pins::Model;
    let m = promela::parse_str(text, "m.pml").unwrap_or_else(|e| panic!("{e}"));
    let mut seen = std::collections::HashSet::new();
    let mut queue = vec![m.initial_state()];
    while let Some(s) = queue.pop() {
        let mut succ = Vec::new();
        if let Err(e) = m.next_all(&s, &mut |_, t| succ.push(t.to_vec())) {
            return Some(e.to_string());
        }
        for t in succ {
            if seen.insert(t.clone()) {
                queue.push(t);
            }
        }
    }
    None
}

#[test]
fn arithmetic_undefined_in_c_is_a_model_error() {
    // pan dies of SIGFPE on the first three; C leaves the shifts undefined.
    for (expr, what) in [
        ("x / y", "division by zero"),
        ("m / n", "integer overflow"),
        ("m % n", "integer overflow"),
        ("1 << s", "shift count 32"),
        ("1 >> n", "shift count -1"),
        ("1 << b", "shift count 64"),
    ] {
        let text = format!(
            "int x = 5, y, m = -2147483647 - 1, n = -1, s = 32, b = 64, z;\n\
             active proctype A() {{\n  z = {expr}\n}}"
        );
        let e = first_model_error(&text).unwrap_or_else(|| panic!("{expr}: no error"));
        assert!(e.contains(what) && e.contains("m.pml:3:"), "{expr}: {e}");
    }
    // Defined (as pan computes them): wrapping + - *, the last shifts in
    // range, division of INT_MIN by other values, stores truncated to the
    // variable's type.
    let ok = "int m = -2147483647 - 1, z; byte c; short h; bit t;\n\
              active proctype A() {\n\
              z = m - 1; assert(z == 2147483647); z = 2147483647 * 2; assert(z == -2);\n\
              z = 1 << 31; assert(z == m); z = m >> 31; assert(z == -1); z = m / 1; assert(z == m);\n\
              c = 300; assert(c == 44); c = -1; assert(c == 255); h = 40000; assert(h == -25536);\n\
              t = 2; assert(t == 0) }";
    assert_eq!(first_model_error(ok), None);
}

#[test]
fn constants_out_of_range_are_refused() {
    for (text, what) in [
        ("byte a[(0 - 9223372036854775807 - 1) / -1];", "overflows"),
        ("byte a[9223372036854775807 * 2];", "overflows"),
        ("byte a[1 << 40];", "shift count 40"),
        (
            "int x;\nactive proctype A() { x = 4294967296 }",
            "does not fit",
        ),
    ] {
        let e = err(text);
        assert_eq!(e.kind(), ErrorKind::Semantic, "{text}: {e}");
        assert!(e.to_string().contains(what), "{text}: {e}");
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
}

/// Asserts that exploring `text` stops at an index out of range at `at`.
fn index_error_at(text: &str, at: &str) {
    let e = first_model_error(text).unwrap_or_else(|| panic!("{text}: no error"));
    assert!(e.contains("out of range") && e.contains(at), "{text}: {e}");
}

#[test]
fn computed_indices_out_of_range_in_guards_are_model_errors() {
    // `a[i] == 0 && i > 9` is false at every i, but at i = 3 its first
    // comparison reads past `a`: the error comes first (a guard comparison
    // that is false after the bad index must not hide it), in a plain
    // condition and in a d_step, with a local or a global index.
    for (step, decl) in [
        ("a[i] == 0 && i > 9 -> skip", "byte i;"),
        ("d_step { a[i + 1 - 1] == 0 && i > 9; skip }", "byte i;"),
        ("a[i] == 0 && i > 9 -> skip", ""),
        ("a[2 * i - 3] == 0 && i > 9 -> skip", ""),
    ] {
        let local = if decl.is_empty() { "byte i;" } else { "" };
        let text = format!(
            "byte a[3]; {decl}\n\
             active proctype A() {{\n  {local}\n  do\n  :: {step}\n  :: i < 3 -> i++\n  od\n}}"
        );
        index_error_at(&text, "m.pml:5:");
    }
    // in range everywhere: no error, whichever comparison is false
    let ok = "byte a[4], i;\nactive proctype A() {\n  do\n  :: a[i] == 0 && i > 9 -> skip\n  :: i < 3 -> i++\n  od\n}";
    assert_eq!(first_model_error(ok), None);
}

#[test]
fn constants_stored_at_computed_indices_out_of_range_are_model_errors() {
    // `a[i] = 7` at i = 3 (and a[-1] first for `2 * i - 1`), as a step
    // and inside a d_step
    for step in [
        "i < 5 -> a[i] = 7; i++",
        "d_step { i < 5; a[i] = 7; i++ }",
        "i < 5 -> a[2 * i - 1] = 7; i++",
    ] {
        let text = format!("byte a[3], i;\nactive proctype A() {{\n  do\n  :: {step}\n  od\n}}");
        index_error_at(&text, "m.pml:4:");
    }
    let ok = "byte a[3], i;\nactive proctype A() {\n  do\n  :: i < 3 -> a[i] = 7; i++\n  od\n}";
    assert_eq!(first_model_error(ok), None);
}
