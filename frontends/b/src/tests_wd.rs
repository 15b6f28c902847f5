//! Unit tests of the model errors ProB reports (well-definedness, reading
//! an unassigned VAR local), of the settings that size deferred sets, of
//! ProB's external functions and definition expansion,
//! on small machines whose outcome is worked out by hand.

use crate::tests::count;

/// The error of `text`, which must be a model error (not `unsupported`).
pub(crate) fn model_error(text: &str) -> String {
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

#[test]
fn assertion_externals() {
    let m = |def: &str, guard: &str| {
        format!(
            "MACHINE A DEFINITIONS {def}
             VARIABLES x INITIALISATION x := 0
             OPERATIONS inc = SELECT x < 3 & {guard} THEN x := x + 1 END END"
        )
    };
    let t = "EXTERNAL_PREDICATE_ASSERT_TRUE == BOOL * STRING; ASSERT_TRUE(P, M) == (1 = 1)";
    // root + x = 0..3; 1 init edge + 3 inc edges
    assert_eq!(count(&m(t, "ASSERT_TRUE(bool(x < 4), \"big\")")), (5, 4));
    let e = model_error(&m(t, "ASSERT_TRUE(bool(x < 2), \"x is 2\")"));
    assert!(e.contains("AssertTrue failed: x is 2"), "{e}");
    let x =
        "EXTERNAL_FUNCTION_ASSERT_EXPR(T) == BOOL * STRING * T --> T; ASSERT_EXPR(P, M, V) == V";
    assert_eq!(count(&m(x, "ASSERT_EXPR(TRUE, \"\", x) < 4")), (5, 4));
    let e = model_error(&m(x, "ASSERT_EXPR(bool(x /= 1), \"one\", x) < 4"));
    assert!(e.contains("AssertExpr failed: one"), "{e}");
}

#[test]
fn choose_strings_and_printing_externals() {
    let m = |init: &str| {
        format!(
            "MACHINE C DEFINITIONS
             EXTERNAL_FUNCTION_CHOOSE(T) == (POW(T) --> T); CHOOSE(X) == \"a member of X\";
             EXTERNAL_FUNCTION_STRING_LENGTH == STRING --> INTEGER; STRING_LENGTH(s) == 0;
             EXTERNAL_FUNCTION_STRING_APPEND == STRING * STRING --> STRING;
             STRING_APPEND(a, b) == a;
             EXTERNAL_SUBSTITUTION_PRINTF(T) == STRING * T; PRINTF(s, v) == x := 7;
             EXTERNAL_PREDICATE_printf(T) == STRING * T; printf(s, v) == (1 = 2)
             VARIABLES x INITIALISATION {init}
             OPERATIONS step = PRE x < 5 THEN x := x + 1; PRINTF(\"~w\", x) END END"
        )
    };
    // the least element, as ProB: x starts at 2; steps to 5; root + 4
    assert_eq!(count(&m("x := CHOOSE({4, 2, 3})")), (5, 4));
    assert_eq!(
        count(&m("x := STRING_LENGTH(STRING_APPEND(\"ab\", \"c\"))")),
        (4, 3)
    );
    // printf is true whatever its definition's body says
    assert_eq!(
        count(&m("x := card({y | y : 1..3 & printf(\"~w\", y)})")),
        (4, 3)
    );
    let e = model_error(&m("x := CHOOSE({y | y : 1..3 & y > 3})"));
    assert!(e.contains("CHOOSE applied to the empty set"), "{e}");
}

#[test]
fn while_with_variant_may_run_past_a_million_iterations() {
    // a VARIANT bounds the loop; without one, over 10^6 iterations stay
    // refused (exec::exec_while)
    let m = |variant: &str| {
        format!(
            "MACHINE L VARIABLES c INITIALISATION c := 0
             OPERATIONS run = PRE c = 0 THEN
               WHILE c < 1000005 DO c := c + 1 INVARIANT c : NATURAL {variant} END
             END END"
        )
    };
    // root, c = 0, c = 1000005; init edge + run edge
    assert_eq!(count(&m("VARIANT 1000005 - c")), (3, 2));
}

#[test]
fn standard_library_files_known_without_a_copy() {
    // no LibraryIO.def beside this machine: ProB's own is meant
    let m = |op: &str| {
        format!(
            "MACHINE P DEFINITIONS \"LibraryIO.def\"; \"LibraryStrings.def\"
             VARIABLES x INITIALISATION x := 0
             OPERATIONS step = PRE x < 2 THEN {op} END END"
        )
    };
    assert_eq!(count(&m("x := x + 1; PRINTF(\"x=~w~n\", [x])")), (4, 3));
    assert_eq!(
        count(&m("x := x + STRING_LENGTH(STRING_APPEND(\"a\", \"\"))")),
        (4, 3)
    );
    // an external this front-end does not evaluate is refused when reached
    let e = crate::tests::first_error(&m("x := x + GET_CODE_STDIN"))
        .expect("GET_CODE_STDIN unsupported");
    assert!(e.contains("external function GET_CODE_STDIN"), "{e}");
}

#[test]
fn definition_parameter_bound_by_a_quantifier() {
    // let(v, {1, 2}, {v}) is UNION(v).(v = {1, 2} | {v}) = {{1, 2}}
    let (s, t) = count(
        "MACHINE D DEFINITIONS let(V, VE, E) == UNION(V).(V = VE | E)
         VARIABLES x INITIALISATION x := card(let(v, {1, 2}, {v})) END",
    );
    assert_eq!((s, t), (2, 1));
}

#[test]
fn state_only_generator_outside_the_domain_is_an_error() {
    // `b(1) = n` generates n from the state alone: with 1 /: dom(b) in
    // the initial state, ProB reports the application (ImpAckProtocol)
    let m = |guard: &str| {
        format!(
            "MACHINE G VARIABLES b INITIALISATION b := {{2 |-> 3}}
             OPERATIONS op(n) = PRE {guard} THEN skip END END"
        )
    };
    let e = model_error(&m("n : NATURAL & b(1) = n"));
    assert!(e.contains("function applied outside its domain"), "{e}");
    // a conjunct before it that fails first: false, as before (root +
    // the initial state, one init edge)
    assert_eq!(count(&m("1 : dom(b) & n : NATURAL & b(1) = n")), (2, 1));
    // a generator reading a parameter (`b(k)`): false where k is outside
    assert_eq!(
        count(&m("k : 1..2 & n = b(k)").replace("op(n)", "op(n, k)")),
        (2, 2)
    );
}

#[test]
fn closed_arithmetic_error_in_unsolvable_properties() {
    // `z` has no finite range, but `zz`'s closed value divides by zero
    let e = model_error(
        "MACHINE U CONSTANTS z, zz
         PROPERTIES z > 1 & zz = {v | v : 0..1 & 10 / v < 20}
         VARIABLES x INITIALISATION x := 0 END",
    );
    assert!(e.contains("division by zero"), "{e}");
}

#[test]
fn untyped_parameters_refused_when_tried() {
    // `bad(a)` cannot be solved, `div` before it divides by zero in the
    // initial state: that error is reported
    let e = model_error(
        "MACHINE D VARIABLES x, y INITIALISATION x, y := 1, 0
         OPERATIONS div = BEGIN x := x / y END; bad(a) = BEGIN x := a END END",
    );
    assert!(e.contains("division by zero"), "{e}");
}

#[test]
fn parallel_writes_of_two_values_are_model_errors() {
    // both branches change f(1) (or x) to different values: ProB's error
    let e = model_error(
        "MACHINE P VARIABLES f INITIALISATION f := {1 |-> 1, 2 |-> 2}
         OPERATIONS op = BEGIN f(1) := 2 || f(1) := 3 END END",
    );
    assert!(
        e.contains("writing one variable with two values at one point"),
        "{e}"
    );
    let e = model_error(
        "MACHINE X VARIABLES x INITIALISATION x := 0
         OPERATIONS op = BEGIN x := 1 || x := 2 END END",
    );
    assert!(e.contains("writing one variable with two values"), "{e}");
    // the same value twice is no conflict
    assert_eq!(
        crate::tests::first_error(
            "MACHINE Y VARIABLES x INITIALISATION x := 0
             OPERATIONS op = BEGIN x := 1 || x := 1 END END",
        ),
        None
    );
}

#[test]
fn a_result_read_before_it_is_assigned_is_a_model_error() {
    // ProB starts the results of the operations it runs undefined
    let e = model_error(
        "MACHINE R VARIABLES x INITIALISATION x := 0
         OPERATIONS r <-- op = PRE r : 0..3 THEN r := x END END",
    );
    assert!(
        e.contains("result 'r' of the operation read before it is assigned"),
        "{e}"
    );
    // a typing predicate over a whole type is ProB's type checker's: it
    // holds, and the operation runs (states x = 0 and x = 1; op from each)
    let (states, transitions) = crate::tests::count(
        "MACHINE T VARIABLES x INITIALISATION x := 0
         OPERATIONS r <-- op = PRE r : INTEGER THEN r := x || x := 1 - x END END",
    );
    assert_eq!((states, transitions), (3, 3));
}
