//! Counts of machines whose PROPERTIES partition a deferred set, solved
//! with the parts' allocation checked while solving (`deferred_prune`):
//! the solutions kept are those of the allocation in order
//! (`partition`), counted here by hand.

use crate::tests::count;

/// A machine with the constants `consts` and PROPERTIES `props`, and a
/// variable set once: each constants solution adds a solution state and
/// an initialised state (and their two edges).
fn machine(consts: &str, props: &str) -> String {
    format!(
        "MACHINE P SETS U CONSTANTS {consts} PROPERTIES {props}
         VARIABLES v INVARIANT v : BOOL INITIALISATION v := TRUE END"
    )
}

/// (states with the root, transitions) for `n` constants solutions.
fn expected(n: usize) -> (usize, usize) {
    (1 + 2 * n, 2 * n)
}

#[test]
fn parts_of_given_sizes_take_the_elements_in_order() {
    // U of 2 + 1 + 1 elements: one allocation of the 12 partitions, and
    // the 2^2 functions from A
    let m = machine(
        "A, B, C, f",
        "U = A \\/ B \\/ C & A /\\ B = {} & A /\\ C = {} & B /\\ C = {}
         & card(A) = 2 & card(B) = 1 & card(C) = 1 & f : A --> BOOL",
    );
    assert_eq!(count(&m), expected(4));
}

#[test]
fn a_second_part_takes_the_last_elements() {
    // U of 3 elements: A = the first k of them, B the other 3 - k, and
    // 2^(3 - k) functions from B: 8 + 4 + 2 + 1
    let m = machine(
        "A, B, g",
        "card(U) = 3 & U = A \\/ B & A /\\ B = {} & g : B --> BOOL",
    );
    assert_eq!(count(&m), expected(15));
}

#[test]
fn a_constant_element_may_go_to_any_part() {
    // U of 3 elements: a is the first; the free second and third go to
    // A, A or A, B or B, B (in order), the first to A or B: f's 2^|A|
    // functions for |A| = 3, 2, 1 (first in A) and 2, 1, 0 (in B)
    let m = machine(
        "a, A, B, f",
        "card(U) = 3 & a : U & U = A \\/ B & A /\\ B = {} & f : A --> BOOL",
    );
    assert_eq!(count(&m), expected(8 + 4 + 2 + 4 + 2 + 1));
}
