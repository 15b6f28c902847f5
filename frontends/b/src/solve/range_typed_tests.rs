//! Unit tests of quantified identifiers typed by inference
//! (`range_typed`, `range_types`): universals whose antecedent gives
//! their identifiers no finite range, counts worked out by hand or
//! brute-forced here.

use crate::tests::{count, first_error};

/// A machine whose constants satisfy `prop`: (states with the root,
/// transitions) for `n` solutions is (2n + 1, 2n).
fn machine(sets: &str, constants: &str, prop: &str) -> String {
    format!("MACHINE M SETS {sets} CONSTANTS {constants} PROPERTIES {prop} END")
}

fn expected(n: usize) -> (usize, usize) {
    (2 * n + 1, 2 * n)
}

#[test]
fn identifiers_typed_by_a_function_they_are_applied_to() {
    // x, y typed only by f's domain: f injective
    let prop = "f : T --> T & !(x, y).(x /= y => f(x) /= f(y))";
    let mut n = 0;
    for code in 0..27 {
        let f = [code % 3, code / 3 % 3, code / 9];
        n += usize::from(f[0] != f[1] && f[0] != f[2] && f[1] != f[2]);
    }
    assert_eq!(count(&machine("T = {a, b, c}", "f", prop)), expected(n));
}

#[test]
fn a_closure_defined_by_its_least_fixpoint_axioms() {
    // Basin's topology discovery: clos(r) is the transitive closure of r,
    // unique; RL and DL disjoint relations over 2 nodes (4 pairs): 3^4
    // states, each with 4 operations (add the links not in RL, remove
    // those in RL)
    let m = "MACHINE Topo SETS NODES CONSTANTS clos
        PROPERTIES clos : (NODES <-> NODES) --> (NODES <-> NODES) &
          !r.(btrue => r <: clos(r)) &
          !r.(btrue => (clos(r) ; r) <: clos(r)) &
          !(r, s).(r <: s & (s ; r) <: s => clos(r) <: s)
        VARIABLES RL, DL INVARIANT RL : NODES <-> NODES & DL : NODES <-> NODES
        INITIALISATION RL, DL := {}, {}
        OPERATIONS
          add(l) = PRE l : NODES * NODES & l /: RL THEN RL := RL \\/ {l} || DL := DL - {l} END;
          remove(l) = PRE l : RL THEN RL := RL - {l} || DL := DL \\/ {l} END
        END";
    // root, constants, 81 states; setup, init, 81 * 4
    assert_eq!(count(m), (83, 2 + 81 * 4));
}

#[test]
fn integer_identifiers_are_not_typed() {
    // x is an integer: its type has no finite carrier, still refused
    let prop = "c : 0..3 & !x.(x /= c => x * x >= 0)";
    assert!(first_error(&machine("T = {a}", "c", prop)).is_some());
}
