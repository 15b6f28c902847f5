//! Unit tests of the whole pipeline on small machines written here: the
//! parser (precedences, definitions, errors with positions) and the counts
//! of tiny state spaces computed by hand.

use pins::Model;

use crate::{parse_str, ErrorKind};

/// (states, transitions) by naive BFS.
pub(crate) fn count(text: &str) -> (usize, usize) {
    let m = parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    pins::validate(&m).expect("valid model");
    frontend_testkit::bfs::count(&m)
}

#[test]
fn counter_modulo() {
    // root + 4 states; init edge + 4 inc edges
    let (s, t) = count(
        "MACHINE C VARIABLES x INVARIANT x : 0..3 INITIALISATION x := 0
         OPERATIONS inc = BEGIN x := (x + 1) mod 4 END END",
    );
    assert_eq!((s, t), (5, 5));
}

#[test]
fn parameters_count_as_distinct_transitions() {
    // set(v) for v : 0..2 from every state: 3 states, 9 op edges + 1 init edge
    let (s, t) = count(
        "MACHINE P VARIABLES x INITIALISATION x := 0
         OPERATIONS set(v) = PRE v : 0..2 THEN x := v END END",
    );
    assert_eq!((s, t), (4, 10));
    // same target, different parameter: two transitions; ANY choices leading
    // to the same state: one
    let (s, t) = count(
        "MACHINE P VARIABLES x INITIALISATION x := 0
         OPERATIONS nop(v) = PRE v : BOOL THEN skip END;
                    any = ANY y WHERE y : 1..3 THEN skip END END",
    );
    assert_eq!((s, t), (2, 4));
}

#[test]
fn constants_give_one_state_per_solution() {
    // PROPERTIES c : 1..3: 3 constant states, 3 initialised states
    let (s, t) = count(
        "MACHINE K CONSTANTS c PROPERTIES c : 1..3 VARIABLES x
         INITIALISATION x := c OPERATIONS skipit = skip END",
    );
    assert_eq!((s, t), (7, 3 + 3 + 3));
}

#[test]
fn defaults_follow_prob() {
    // NAT = 0..3 (MAXINT = 3), deferred sets of 2 elements
    let (s, _) = count("MACHINE D SETS S VARIABLES x, y INITIALISATION x :: NAT || y :: S END");
    assert_eq!(s, 1 + 4 * 2);
    let (s, _) = count(
        "MACHINE D DEFINITIONS SET_PREF_MAXINT == 5; scope_S == 3
         SETS S VARIABLES x, y INITIALISATION x :: NAT || y :: S END",
    );
    assert_eq!(s, 1 + 6 * 3);
}

#[test]
fn definitions_with_parameters_and_precedence() {
    // sq(1+1) must be (1+1)*(1+1) = 4 (not 1+1*1+1 = 3); `&` binds
    // tighter than `=>`, so the guard's implication is always true:
    // x = 4, 5, 6 plus the root
    let (s, _) = count(
        "MACHINE D DEFINITIONS sq(a) == a*a
         VARIABLES x INITIALISATION x := sq(1+1)
         OPERATIONS op = SELECT x < 6 & (x = 4 & 1 = 2 => 1 = 2) THEN x := x + 1 END END",
    );
    assert_eq!(s, 4);
}

#[test]
fn sequencing_and_parallel() {
    let (s, t) = count(
        "MACHINE S VARIABLES x, y INITIALISATION x := 1; y := x + 1
         OPERATIONS swap = BEGIN x := y || y := x END END",
    );
    assert_eq!((s, t), (3, 3));
}

#[test]
fn relations_and_functions() {
    let (s, _) = count(
        "MACHINE R SETS P = {a, b} VARIABLES f
         INITIALISATION f := {a |-> 1}
         OPERATIONS upd(p) = PRE p : P & p /: dom(f) THEN f(p) := card(f) + 1 END END",
    );
    // {a|->1}, {a|->1, b|->2}
    assert_eq!(s, 3);
}

#[test]
fn syntax_errors_name_file_line_column() {
    let e =
        parse_str("MACHINE M\nVARIABLES x\nINITIALISATION x := \nEND", "m.mch").expect_err("error");
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.to_string().starts_with("m.mch:"), "{e}");
}

#[test]
fn unsupported_is_reported() {
    let e = parse_str(
        "MACHINE M DEFINITIONS SET_PREF_KODKOD == TRUE VARIABLES x INITIALISATION x := 0 END",
        "m.mch",
    )
    .expect_err("error");
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let e = parse_str(
        "MACHINE M VARIABLES x INITIALISATION x := 0 OPERATIONS op(v) = PRE v : NATURAL THEN x := v END END",
        "m.mch",
    )
    .expect_err("error");
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

/// The model error the first state after the initialisation of machine
/// `text` raises.
fn error_after_initialisation(text: &str) -> pins::ModelError {
    let m = parse_str(text, "m.mch").expect("parse");
    let init = m.initial_state();
    let mut states = Vec::new();
    m.next_all(&init, &mut |_, t| states.push(t.to_vec()))
        .expect("init");
    m.next_all(&states[0], &mut |_, _| {})
        .expect_err("model error")
}

#[test]
fn well_definedness_errors_are_model_errors() {
    let err = error_after_initialisation(
        "MACHINE M VARIABLES f INITIALISATION f := {1 |-> 2} OPERATIONS op = BEGIN f := {f(3) |-> 1} END END",
    );
    assert!(err.message.contains("outside its domain"), "{err}");
    assert!(!crate::is_unsupported(&err));
}

#[test]
fn nested_precondition_violation_is_a_model_error() {
    let err = error_after_initialisation(
        "MACHINE M VARIABLES x INITIALISATION x := 0
         OPERATIONS op = PRE x = 0 THEN PRE x = 1 THEN x := 2 END END END",
    );
    assert!(err.message.contains("precondition violated"), "{err}");
}

/// The first model error met by a naive BFS, if any.
pub(crate) fn first_error(text: &str) -> Option<String> {
    let m = parse_str(text, "t.mch").unwrap_or_else(|e| panic!("{e}"));
    match frontend_testkit::bfs::bfs(&m, usize::MAX, None) {
        frontend_testkit::bfs::Bfs::Error(e) => Some(e.to_string()),
        _ => None,
    }
}

#[test]
fn while_invariant_and_variant_are_checked() {
    let m = |inv: &str, var: &str| {
        format!(
            "MACHINE W VARIABLES x INITIALISATION x := 0
             OPERATIONS run = BEGIN x := 0; WHILE x < 3 DO x := x + 1
             INVARIANT {inv} VARIANT {var} END END END"
        )
    };
    assert_eq!(first_error(&m("x <= 3", "3 - x")), None);
    let e = first_error(&m("x <= 2", "3 - x")).expect("invariant error");
    assert!(
        e.contains("INVARIANT violated") && e.contains("t.mch:3:"),
        "{e}"
    );
    let e = first_error(&m("x <= 3", "x")).expect("variant error");
    assert!(e.contains("VARIANT not decreasing"), "{e}");
    let e = first_error(&m("x <= 3", "1 - x")).expect("variant error");
    assert!(e.contains("VARIANT not a natural number"), "{e}");
}

#[test]
fn failing_initialisation() {
    // without constants: no state (ProB counts 0); with constants: an error
    let (s, t) = count("MACHINE F VARIABLES x INITIALISATION x :: {} END");
    assert_eq!((s, t), (1, 0));
    let e = first_error(
        "MACHINE F CONSTANTS c PROPERTIES c : BOOL VARIABLES x
         INITIALISATION x :: {} END",
    )
    .expect("initialisation error");
    assert!(e.contains("INITIALISATION has no solution"), "{e}");
}

#[test]
fn parameters_ranged_by_a_relation_image() {
    // `cur |-> to : succ` enumerates `to` over the pairs from `cur`
    let (s, t) = count(
        "MACHINE G VARIABLES cur INITIALISATION cur := 0
         OPERATIONS go(to) = PRE cur |-> to : {0 |-> 1, 1 |-> 2, 1 |-> 0, 2 |-> 2}
         THEN cur := to END END",
    );
    // root + 3 states; 1 init edge + 4 go edges
    assert_eq!((s, t), (4, 5));
}

#[test]
fn nested_select_and_parallel_conflicts() {
    // a SELECT under the top-level PRE: applying a function outside its
    // domain there is an error, not a false guard
    let e = first_error(
        "MACHINE N VARIABLES f INITIALISATION f := {1 |-> 2}
         OPERATIONS op(x) = PRE x : 1..2 THEN SELECT f(x) = 2 THEN skip END END END",
    )
    .expect("nested SELECT error");
    assert!(e.contains("outside its domain"), "{e}");
    let e = first_error(
        "MACHINE Q VARIABLES f INITIALISATION f := {1 |-> 1, 2 |-> 2}
         OPERATIONS op = BEGIN f(1) := 2 || f(2) := 1 END END",
    )
    .expect("parallel conflict");
    assert!(e.contains("writing one variable differently"), "{e}");
}
