//! Unit tests of the model errors ProB reports (well-definedness, reading
//! an unassigned VAR local) and of the settings that size deferred sets,
//! on small machines whose outcome is worked out by hand.

use crate::tests::count;

/// The error of `text`, which must be a model error (not `unsupported`).
fn model_error(text: &str) -> String {
    let m = crate::parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    match frontend_testkit::bfs::bfs(&m, usize::MAX, None) {
        frontend_testkit::bfs::Bfs::Error(e) => {
            assert!(!crate::is_unsupported(&e), "{e}");
            e.to_string()
        }
        _ => panic!("no error"),
    }
}

#[test]
fn var_local_read_before_assigned_is_a_model_error() {
    let e = model_error(
        "MACHINE U VARIABLES x INITIALISATION x := 0
         OPERATIONS op = VAR y IN IF x : y THEN y := {x} END END END",
    );
    assert!(
        e.contains("VAR local 'y' read before it is assigned"),
        "{e}"
    );
    // assigned on every path first: no error; root + 2 states
    assert_eq!(
        count(
            "MACHINE V VARIABLES x INITIALISATION x := 0
             OPERATIONS op = VAR y IN y := 1 - x; x := y END END"
        ),
        (3, 3)
    );
}

#[test]
fn scope_interval_sizes_a_deferred_set() {
    // scope_S == 4..6: S has 3 elements; root + 3 states, 3 init edges
    let m = |scope: &str| {
        format!(
            "MACHINE S DEFINITIONS scope_S == {scope} SETS S
             VARIABLES x INITIALISATION x :: S END"
        )
    };
    assert_eq!(count(&m("4..6")), (4, 3));
    assert_eq!(count(&m("1..2")), (3, 2));
    assert_eq!(count(&m("5")), (6, 5));
}

#[test]
fn try_find_abort_reports_applications_beside_equality() {
    let m = |pref: &str| {
        format!(
            "MACHINE F DEFINITIONS SET_PREF_TRY_FIND_ABORT == {pref}
             SETS S = {{a, b}}
             PROPERTIES !(f).(f : S +-> S => !(x).(x : S & f(x) = a => x : S))
             VARIABLES v INITIALISATION v := 0 END"
        )
    };
    let e = model_error(&m("TRUE"));
    assert!(
        e.contains("in a quantified formula: function applied outside its domain"),
        "{e}"
    );
    // without the preference, `f(x) = a` is solved relationally (see
    // eval::quantified): no model error
    let e = crate::tests::first_error(&m("FALSE")).unwrap_or_default();
    assert!(!e.contains("in a quantified formula"), "{e}");
}
