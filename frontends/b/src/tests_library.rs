//! Unit tests of ProB's standard library files named without a copy
//! beside the machine (`LibraryMeta.def`, `LibraryProB.def`), of the
//! empty-set candidate's well-definedness errors in the PROPERTIES, and of
//! the bound on one operation's transitions from one state, of
//! `STRING_IS_INT` and of integer expressions in preference pragmas.

use crate::tests::{count, first_error};
use crate::tests_wd::model_error;

#[test]
fn meta_and_prob_libraries_known_without_a_copy() {
    // included but unused: the state space is the machine's own
    let m = |lib: &str, op: &str| {
        format!(
            "MACHINE P DEFINITIONS \"{lib}\"
             VARIABLES x INITIALISATION x := 0
             OPERATIONS step = PRE x < 2 THEN {op} END END"
        )
    };
    assert_eq!(count(&m("LibraryMeta.def", "x := x + 1")), (4, 3));
    // DO_NOT_ENUMERATE only delays ProB's enumeration: card(1..x + 1)
    assert_eq!(
        count(&m(
            "LibraryProB.def",
            "x := card({y | DO_NOT_ENUMERATE(y) & y : 1..9 & y <= x + 1})"
        )),
        (4, 3)
    );
    for (lib, op, what) in [
        (
            "LibraryMeta.def",
            "x := CURRENT_STATE_ID",
            "external function CURRENT_STATE_ID",
        ),
        (
            "LibraryProB.def",
            "x := TO_INT(x)",
            "external function TO_INT",
        ),
    ] {
        let e = first_error(&m(lib, op)).expect("unsupported");
        assert!(e.contains("unsupported") && e.contains(what), "{e}");
    }
}

#[test]
fn empty_candidate_error_in_properties() {
    // nrs = {} satisfies nrs <: NATURAL1, then max({}) is undefined
    let e = model_error(
        "MACHINE M CONSTANTS nrs PROPERTIES nrs <: NATURAL1 & max(nrs) = 3
         VARIABLES x INITIALISATION x :: nrs END",
    );
    assert!(e.contains("max of the empty set"), "{e}");
    // nrs /= {} rules the empty set out: no claim, still unsupported
    let e = first_error(
        "MACHINE M CONSTANTS nrs PROPERTIES nrs <: NATURAL1 & max(nrs) = 3 & nrs /= {}
         VARIABLES x INITIALISATION x :: nrs END",
    )
    .expect("error");
    assert!(e.starts_with("unsupported: "), "{e}");
}

#[test]
fn too_many_transitions_of_one_operation_are_refused() {
    // 101^3 parameter values, each its own transition
    let e = first_error(
        "MACHINE M VARIABLES x INITIALISATION x := 0
         OPERATIONS op(a, b, c) = PRE a : 0..100 & b : 0..100 & c : 0..100 THEN skip END END",
    )
    .expect("error");
    assert!(
        e.starts_with("unsupported: ") && e.contains("transitions of op from one state"),
        "{e}"
    );
}

#[test]
fn string_is_int_from_library_strings() {
    // s ranges over 4 strings, 2 of them integers: root, init, 2 states;
    // the init edge and 2 set edges from each of the 3 states
    let (s, t) = count(
        "MACHINE S DEFINITIONS \"LibraryStrings.def\"
         VARIABLES x INITIALISATION x := \"\"
         OPERATIONS set(s) = PRE s : {\"12\", \"-3\", \"1a\", \"b\"} & STRING_IS_INT(s)
           THEN x := s END END",
    );
    assert_eq!((s, t), (4, 7));
}

#[test]
fn maxint_pragma_as_an_integer_expression() {
    // MAXINT = 2**2-1 = 3 given as an expression: NAT = 0..3
    let (s, t) = count(
        "MACHINE M DEFINITIONS SET_PREF_MAXINT == 2**2-1
         VARIABLES x INITIALISATION x :: NAT END",
    );
    assert_eq!((s, t), (5, 4));
    let (s, _) = count(
        "MACHINE N DEFINITIONS SET_PREF_MAXINT == (1+1)**3
         VARIABLES x INITIALISATION x :: NAT END",
    );
    assert_eq!(s, 10);
}
