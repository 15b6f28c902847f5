//! Unit tests of an existential deciding over the domain of a function
//! applied to its integer-typed identifier (`plan_exists`, CXCC's
//! `#i.(i : NATURAL1 & route(f)(i) = n & route(f)(i+1) = suc)`); counts
//! worked out by hand.

use crate::tests::{count, first_error};

/// A walk along the sequence `s = [5, 6, 7]` by the successor `guard`
/// finds, from `n = 5`.
fn walk(guard: &str) -> String {
    format!(
        "MACHINE W CONSTANTS s PROPERTIES s = [5, 6, 7]
         VARIABLES n INVARIANT n : INTEGER INITIALISATION n := 5
         OPERATIONS step(m) = PRE m : 0..10 & {guard} THEN n := m END END"
    )
}

#[test]
fn an_existential_ranges_over_the_sequence_domain() {
    // the root, the constants, n = 5, 6, 7; setup, init, 5 -> 6, 6 -> 7
    // (from 7 no successor: s(4) is outside the domain)
    let g = "#i.(i : NATURAL1 & s(i) = n & s(i + 1) = m)";
    assert_eq!(count(&walk(g)), (5, 4));
    // i : NATURAL: the same (0 is not in the domain)
    let g = "#i.(i : NATURAL & s(i) = n & s(i + 1) = m)";
    assert_eq!(count(&walk(g)), (5, 4));
}

#[test]
fn an_integer_parameter_applied_is_still_refused() {
    // as an operation parameter, ProB may label `i` from its typing
    let m = "MACHINE W CONSTANTS s PROPERTIES s = [5, 6, 7]
             VARIABLES n INVARIANT n : INTEGER INITIALISATION n := 5
             OPERATIONS step(i) = PRE i : NATURAL1 & s(i) = n & s(i + 1) > n
             THEN n := s(i + 1) END END";
    assert!(first_error(m).is_some());
}
