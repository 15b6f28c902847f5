//! Unit tests of ProB's syntax extensions that the ProB examples of
//! B/FeatureChecks and B/NewSyntax use: hexadecimal literals, a VARIABLES
//! item that is a parenthesised list (from a definition), the EXPRESSIONS
//! clause, `x, y :: S`, and lambdas whose typing conjuncts are not in the
//! order of their parameters (ProB's LibraryMath), and calls of the
//! machine's own operations (`library_opcalls`). Counts by hand.

use crate::tests::{count, first_error};

#[test]
fn hexadecimal_literals() {
    // 0x10 = 16 and 0xff = 255: x takes 16, then 255, then stays
    let (s, t) = count(
        "MACHINE H VARIABLES x INITIALISATION x := 0x10
         OPERATIONS up = PRE x < 0xff THEN x := 0xff END END",
    );
    assert_eq!((s, t), (3, 2));
    let text = "MACHINE H VARIABLES x INITIALISATION x := 0xFFFFFFFFFFFFFFFF END";
    let Err(e) = crate::parse_str(text, "t.mch") else {
        panic!("a literal beyond 64 bits accepted");
    };
    let e = e.to_string();
    assert!(e.contains("0xFFFFFFFFFFFFFFFF beyond 64 bits"), "{e}");
}

#[test]
fn variables_listed_through_a_parenthesised_definition() {
    // x : BOOL, y : 0..2 and z : BOOL, all combinations
    let (s, t) = count(
        "MACHINE V DEFINITIONS Vars == (x, y)
         VARIABLES Vars, z
         INITIALISATION x :: BOOL || y :: 0..2 || z :: BOOL END",
    );
    assert_eq!((s, t), (1 + 2 * 3 * 2, 2 * 3 * 2));
}

#[test]
fn expressions_clause_is_ignored_and_its_names_are_unknown() {
    let (s, t) = count(
        "MACHINE E SETS ID = {aa, bb}
         EXPRESSIONS two == card(ID); three == two + 1
         VARIABLES x INITIALISATION x :: ID END",
    );
    assert_eq!((s, t), (3, 2));
    let e = first_error(
        "MACHINE E SETS ID = {aa, bb}
         EXPRESSIONS two == card(ID)
         VARIABLES x INITIALISATION x := two END",
    )
    .expect("an error");
    assert!(e.contains("two"), "{e}");
}

#[test]
fn becomes_element_of_a_set_of_tuples() {
    // x, y :: S with S of three pairs, two of them with x = 1
    let (s, t) = count(
        "MACHINE T VARIABLES x, y
         INITIALISATION x, y :: {1 |-> 2, 1 |-> 3, 2 |-> 2}
         OPERATIONS swap = BEGIN x, y :: {y |-> x} END END",
    );
    // states (1,2) (1,3) (2,2) (2,1) (3,1); swap from each
    assert_eq!((s, t), (1 + 5, 3 + 5));
    // three identifiers: ((x, y), z)
    let (s, _) = count(
        "MACHINE T VARIABLES x, y, z
         INITIALISATION x, y, z :: {1 |-> 2 |-> 3, 3 |-> 2 |-> 1} END",
    );
    assert_eq!(s, 3);
}

#[test]
fn lambda_typed_out_of_parameter_order() {
    // the typing f : NATURAL1 * INTEGER --> INTEGER holds by the lambda's
    // domain (m : NATURAL1, x : INTEGER, typed in the other order): one
    // constants state, kept symbolic; f(2, 3) = 6, then 5 and 4
    let (s, t) = count(
        "MACHINE L ABSTRACT_CONSTANTS f
         PROPERTIES f : NATURAL1 * INTEGER --> INTEGER &
                    f = %(m, x).(x : INTEGER & m : NATURAL1 | m * x)
         VARIABLES v INITIALISATION v := f(2, 3)
         OPERATIONS dec = PRE v > 4 THEN v := v - 1 END END",
    );
    assert_eq!((s, t), (1 + 1 + 3, 1 + 1 + 2));
}

/// A local call: `bump` calls the machine's own `next`.
const LOCAL_CALL: &str = "MACHINE L DEFINITIONS PREF
     VARIABLES x INITIALISATION x := 0
     OPERATIONS
       bump = PRE x < 3 THEN VAR r IN r <-- next(x); x := r END END;
       r <-- next(v) = PRE v : 0..5 THEN r := v + 1 END
     END";

#[test]
fn local_operation_calls_with_prob_preference() {
    let text = LOCAL_CALL.replace("PREF", "SET_PREF_ALLOW_LOCAL_OPERATION_CALLS == TRUE");
    // x = 0..3; bump from 0, 1, 2; next(v) for 6 values in each state
    assert_eq!(count(&text), (1 + 4, 1 + 3 + 4 * 6));
    let text = LOCAL_CALL.replace("PREF", "SET_PREF_MAXINT == 3");
    let e = first_error(&text).expect("refused");
    assert!(e.contains("unknown operation 'next'"), "{e}");
}

#[test]
fn endless_local_recursion_is_refused() {
    let e = first_error(
        "MACHINE R DEFINITIONS SET_PREF_ALLOW_LOCAL_OPERATION_CALLS == TRUE
         VARIABLES x INITIALISATION x := 0
         OPERATIONS
           r <-- loop(v) = PRE v : 0..1 THEN VAR y IN y <-- loop(v); r := y END END
         END",
    )
    .expect("refused");
    assert!(e.contains("nested more than"), "{e}");
}

#[test]
fn a_system_with_events_runs_as_a_machine_with_operations() {
    // x = 0..2 by inc; set(v) for v : 0..1 from each of the 3 states
    let body = "VARIABLES x INITIALIZATION x := 0
         KW
           inc = SELECT x < 2 THEN x := x + 1 END;
           set = ANY v WHERE v : 0..1 THEN x := v END
         END";
    let system = format!("SYSTEM S {}", body.replace("KW", "EVENTS"));
    let machine = format!("MACHINE S {}", body.replace("KW", "OPERATIONS"));
    assert_eq!(count(&system), (1 + 3, 1 + 2 + 3 * 2));
    assert_eq!(count(&system), count(&machine));
}

#[test]
fn an_operation_named_as_a_definition_keeps_its_name() {
    // Tantris: operation Rotate(b) beside definition Rotate(T, offset);
    // the body's Rotate(x, n) is the definition: x = 0..3 by steps 1, 2
    let (s, t) = count(
        "MACHINE N DEFINITIONS Step(a, b) == a + b
         VARIABLES x INITIALISATION x := 0
         OPERATIONS Step(n) = PRE n : 1..2 & x + n <= 3 THEN x := Step(x, n) END END",
    );
    // steps: from 0: 2, from 1: 2, from 2: 1, from 3: 0
    assert_eq!((s, t), (1 + 4, 1 + 5));
}

/// A machine calling its query operation `Double` inside expressions.
const CALLS_IN_EXPR: &str = "MACHINE Q DEFINITIONS PREF
     VARIABLES x INITIALISATION x := 0
     OPERATIONS
       r <-- Double(v) = PRE v : 0..20 THEN r := v + v END;
       step = PRE x < 5 THEN x := Double(Double(x) + 1) END;
       STEP2
     END";

#[test]
fn query_operations_called_in_expressions() {
    let pref = "SET_PREF_ALLOW_OPERATION_CALLS_IN_EXPRESSIONS == TRUE";
    let text = CALLS_IN_EXPR
        .replace("PREF", pref)
        .replace(";\n       STEP2", "");
    // x = 0 -> 2 * (0 + 1) = 2 -> 2 * (4 + 1) = 10; Double for 21
    // values in each of the 3 states, step from 0 and 2
    assert_eq!(count(&text), (1 + 3, 1 + 21 * 3 + 2));
    // under a binder the call is not hoisted: refused where evaluated
    let text = CALLS_IN_EXPR.replace("PREF", pref).replace(
        "STEP2",
        "other = BEGIN x := card({y | y : 0..2 & Double(y) > x}) END",
    );
    let e = first_error(&text).expect("refused");
    assert!(e.contains("unknown identifier 'Double'"), "{e}");
    // without the preference, no call in an expression
    let text = CALLS_IN_EXPR
        .replace("PREF", "SET_PREF_MAXINT == 3")
        .replace(";\n       STEP2", "");
    let e = first_error(&text).expect("refused");
    assert!(e.contains("unknown identifier 'Double'"), "{e}");
}
