//! Bad input (issue 35, point 6): syntax errors name FILE:LINE:COLUMN
//! (classical B and Event-B exports), type errors name the expression, a
//! machine that is not there is reported with the file path looked for,
//! and files of the collection that are not models (a `.def`) or that
//! ProB rejects (a file declaring another machine's name, a definition
//! that expands into itself) end in an error, never a panic.

mod common;

use std::path::Path;

use bmethod::{parse_file, parse_str, ErrorKind};
use frontend_testkit::bfs::{bfs, Bfs};

/// The error reading `text` (a machine labelled `label`) must give.
fn error_of(text: &str, label: &str) -> bmethod::BError {
    match parse_str(text, label) {
        Ok(_) => panic!("{label} read without an error"),
        Err(e) => e,
    }
}

/// The kind, line and column of an error.
fn place(e: &bmethod::BError) -> (ErrorKind, Option<u32>, Option<u32>) {
    (e.kind(), e.line(), e.column())
}

#[test]
fn classical_syntax_errors_name_file_line_and_column() {
    // a token that cannot start an expression: the second `+`, line 3
    // column 25
    let e = error_of(
        "MACHINE M\nVARIABLES x\nINITIALISATION x := 1 + + 2\nEND\n",
        "m.mch",
    );
    assert_eq!(place(&e), (ErrorKind::Syntax, Some(3), Some(25)), "{e}");
    assert!(e.to_string().starts_with("m.mch:3:25: "), "{e}");
    // an unterminated comment, opened line 2 column 3
    let e = error_of("MACHINE M\n  /* no end\nEND\n", "c.mch");
    assert_eq!(place(&e), (ErrorKind::Syntax, Some(2), Some(3)), "{e}");
    // an operation whose body is cut: reported in its line, not at 1:1
    let e = error_of(
        "MACHINE M\nVARIABLES x\nINITIALISATION x := 0\nOPERATIONS\n  op = BEGIN x := END\nEND\n",
        "o.mch",
    );
    assert_eq!((e.kind(), e.line()), (ErrorKind::Syntax, Some(5)), "{e}");
    assert!(e.column().is_some(), "{e}");
}

#[test]
fn event_b_syntax_errors_name_file_line_and_column() {
    // the term is cut after `identifier(none,x)` of line 3 (column 32 is
    // its closing bracket); the reader names a place on that line or the
    // next, never the start of the file
    let text = "package(load_event_b_project(\n  [event_b_model(none,'M',[\n    variables(none,[identifier(none,x)\n";
    let e = error_of(text, "m.eventb");
    assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
    assert!(e.to_string().starts_with("m.eventb:"), "{e}");
    assert!(matches!(e.line(), Some(3 | 4)), "{e}");
    assert!(e.column().is_some(), "{e}");
    // a character no Prolog term has, line 2 column 5
    let e = error_of("package(\n    @)", "p.eventb");
    assert_eq!(place(&e), (ErrorKind::Syntax, Some(2), Some(5)), "{e}");
}

/// The first model error a naive exploration of `text` meets.
fn exploration_error(text: &str) -> String {
    let m = parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    match bfs(&m, 1000, None) {
        Bfs::Error(e) => e.to_string(),
        _ => panic!("no error exploring {text}"),
    }
}

#[test]
fn type_errors_name_the_expression() {
    let e = exploration_error("MACHINE T VARIABLES x INITIALISATION x := 1 + TRUE END");
    assert!(
        e.contains("t.mch:1:") && e.contains("found a boolean: `TRUE`"),
        "{e}"
    );
    let e = exploration_error(
        "MACHINE T VARIABLES x INITIALISATION x := 1
         OPERATIONS op = BEGIN x := card(x + 1) END END",
    );
    assert!(
        e.contains("t.mch:2:") && e.contains("expected a set, found an integer: `x + 1`"),
        "{e}"
    );
    let e = exploration_error(
        "MACHINE T VARIABLES s INITIALISATION s := {1}
         OPERATIONS op = BEGIN s := s \\/ card(s) END END",
    );
    assert!(e.contains("`card(s)`"), "{e}");
}

#[test]
fn missing_machines_name_the_file_looked_for() {
    for clause in ["SEES", "INCLUDES", "EXTENDS", "REFINES"] {
        let text = format!("MACHINE M {clause} Nowhere VARIABLES x INITIALISATION x := 0 END");
        let e = error_of(&text, "m.mch");
        assert_eq!(e.kind(), ErrorKind::Semantic, "{clause}: {e}");
        let looked = Path::new(".").join("Nowhere.mch");
        assert!(
            e.message().contains(&looked.display().to_string()),
            "{clause}: {e}"
        );
        assert!(e.to_string().starts_with("m.mch:1:"), "{clause}: {e}");
    }
}

/// The collection's file `rel` (under `prob-examples/`), or `None` when
/// the dataset is missing (a failure under CI, see `common::b_dir`).
fn collection_file(rel: &str) -> Option<std::path::PathBuf> {
    let path = common::b_dir()?.join("prob-examples").join(rel);
    assert!(path.is_file(), "{} missing", path.display());
    Some(path)
}

#[test]
fn a_missing_machine_of_the_collection_is_named_with_its_path() {
    let Some(path) = collection_file("B/Pragmas/FilePragma.mch") else {
        return;
    };
    let Err(e) = parse_file(&path) else {
        panic!("read although ID.mch is not in its folder");
    };
    let looked = path.parent().expect("folder").join("ID.mch");
    assert_eq!(e.kind(), ErrorKind::Semantic, "{e}");
    assert!(e.message().contains(&looked.display().to_string()), "{e}");
}

#[test]
fn files_prob_rejects_are_errors_not_panics() {
    let cases = [
        // EXTENDS WrongNameM1, whose file declares MACHINE WrongNameM0
        (
            "B/ErrorMachines/IllegalSeesIncludes/WrongNameM0.mch",
            ErrorKind::Semantic,
            "WrongNameM1",
        ),
        // `fac` calls itself: expanding it never ends
        (
            "B/ErrorMachines/RecursiveDefinition.mch",
            ErrorKind::Unsupported,
            "nested more than",
        ),
        // definitions, not a machine
        (
            "B/ExternalFunctions/CHOOSE.def",
            ErrorKind::Semantic,
            "not a machine",
        ),
    ];
    for (rel, kind, says) in cases {
        let Some(path) = collection_file(rel) else {
            return;
        };
        let Err(e) = parse_file(&path) else {
            panic!("{rel} read without an error");
        };
        assert_eq!(e.kind(), kind, "{e}");
        assert!(e.message().contains(says), "{e}");
    }
}

#[test]
fn a_definition_expanding_into_itself_is_refused() {
    let e = error_of(
        "MACHINE R DEFINITIONS f(x) == 1 + f(x - 1) VARIABLES v INITIALISATION v := f(3) END",
        "r.mch",
    );
    assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().starts_with("r.mch:1:"), "{e}");
    // nesting just under the bound still parses (and evaluates)
    let depth = 250;
    let deep = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    let text = format!("MACHINE D VARIABLES v INITIALISATION v := {deep} END");
    assert!(parse_str(&text, "d.mch").is_ok());
}
