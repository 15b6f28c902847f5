//! SonLazySetEvaluation's constructs, small: a function fixed point by
//! point by a recurrence (`c(1) = 1 & !r.(r : 2..n => c(r) = E(c(r -
//! 1)))`, `solve::points`), the `/*@symbolic*/` pragma (`symbolic_pragma`)
//! and the applications a symbolic constant remembers
//! (`symbolic_recent`). Expected counts come from the same machine with
//! the function written out, or by hand.

use crate::tests::{count, first_error};

/// A machine reading the carry bits `c` through a walk `v` over `1..4`
/// that stops where `c(v) = 0`; `c` given by `props`.
fn walker(props: &str) -> String {
    format!(
        "MACHINE W CONSTANTS c, m PROPERTIES m = {{1 |-> 1, 2 |-> 0, 3 |-> 1, 4 |-> 1}} & {props}
         VARIABLES v INVARIANT v : 1..4 INITIALISATION v := 1
         OPERATIONS step = PRE v < 4 & c(v) = 1 THEN v := v + 1 END;
           back = PRE v > 1 & c(v) = 0 THEN v := v - 1 END END"
    )
}

#[test]
fn a_recurrence_fixes_a_function_into_a_finite_set() {
    // c(r) = 1 when m(r - 1) + c(r - 1) = 2: c = {1 |-> 1, 2 |-> 1,
    // 3 |-> 0, 4 |-> 0}; the same model with c written out
    let recurrence = "c : 1..4 --> 0..1 & c(1) = 1 &
        !r.(r : 2..4 => c(r) = (m(r - 1) + c(r - 1)) / 2)";
    let written = "c = {1 |-> 1, 2 |-> 1, 3 |-> 0, 4 |-> 0}";
    assert_eq!(count(&walker(recurrence)), count(&walker(written)));
    // root, constants, v = 1, 2, 3; setup, init, 1 -> 2 -> 3 -> 2
    assert_eq!(count(&walker(written)), (5, 5));
}

#[test]
fn a_recurrence_leaving_a_point_free_enumerates_the_rest() {
    // c(1) is free: two solutions, c constant 1 or constant 0
    let free = "c : 1..4 --> 0..1 & !r.(r : 2..4 => c(r) = c(r - 1))";
    // root, two constant states; c = 1: v = 1..4; c = 0: v = 1; two
    // setups, two inits, three steps
    assert_eq!(count(&walker(free)), (8, 7));
}

#[test]
fn a_recurrence_with_no_solution_leaves_none() {
    // c(2) = 1 - c(1) = 0 clashes with c(2) = 1: no constants, 1 state
    let clash = "c : 1..4 --> 0..1 & c(1) = 1 & c(2) = 1 &
        !r.(r : 2..4 => c(r) = 1 - c(r - 1))";
    assert_eq!(count(&walker(clash)), (1, 0));
}

/// A lambda undefined at 0 (`6 / x`), after `mark`: kept symbolic by
/// the pragma, it is applied only at 1 and 2 (root, constants, v = 6,
/// v = 3: 4 states); computed whole, it fails.
#[test]
fn the_symbolic_pragma_keeps_a_constant_symbolic() {
    let m = |mark: &str| {
        format!(
            "MACHINE P CONSTANTS f PROPERTIES f = {mark} %x.(x : 0..2 | 6 / x)
             VARIABLES v INVARIANT v : 0..6 INITIALISATION v := f(1)
             OPERATIONS half = PRE v = 6 THEN v := f(2) END END"
        )
    };
    assert_eq!(count(&m("/*@symbolic*/")), (4, 3));
    assert!(first_error(&m("")).is_some());
    // inside a line comment it is no pragma
    assert!(first_error(&m("// /*@symbolic*/\n")).is_some());
}

#[test]
fn remembered_applications_give_the_computed_values() {
    // inc applied at v each step, from memory when v was seen lately: the
    // walk 0 -> 1 -> 2 -> 3 -> 0 visits 4 values twice over
    let m = "MACHINE R ABSTRACT_CONSTANTS inc PROPERTIES inc = %x.(x : 0..3 | (x + 1) mod 4)
             VARIABLES v, k INVARIANT v : 0..3 & k : 0..8 INITIALISATION v, k := 0, 0
             OPERATIONS step = PRE k < 8 THEN v, k := inc(v), k + 1 END END";
    // root, constants, 9 values of k (v = k mod 4)
    assert_eq!(count(m), (11, 10));
}
