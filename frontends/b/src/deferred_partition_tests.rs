//! Unit tests of `setsize`'s partitions of a deferred set into parts of
//! unknown sizes, on small machines whose counts are computed by hand:
//! accepted when constants said pairwise distinct name every element of
//! the set (no free element for ProB's ordered allocation), refused
//! otherwise.

use crate::tests::count;
use crate::tests_setsize::refusal;

/// `U` listed by three distinct constants, then split into three parts.
fn listed_and_split(size: &str) -> String {
    format!(
        "MACHINE P SETS U CONSTANTS a, b, c, p, q, r
         PROPERTIES U = {{a}} \\/ {{b}} \\/ {{c}} & a /= b & a /= c & b /= c
           & U = p \\/ q \\/ r & p /\\ q = {{}} & p /\\ r = {{}} & q /\\ r = {{}}
           & card(p) = 1 {size}
         VARIABLES x INITIALISATION x := 0 END"
    )
}

#[test]
fn a_split_of_a_set_whose_elements_are_all_named_is_solved_in_full() {
    // U = {a, b, c}, one MACE-ordered valuation of a, b, c; no free
    // element, so every partition is kept: p takes one of the 3 named
    // elements, the 2 others go to q or r: 3 * 2 * 2 = 12 solutions, each
    // with its initialised state: root + 12 + 12 states, 12 + 12 edges
    let (s, t) = count(&listed_and_split(""));
    assert_eq!((s, t), (25, 24));
}

#[test]
fn a_split_of_a_set_with_free_elements_stays_refused() {
    // card(U) = 4 beside three named elements: a free element whose place
    // ProB's allocation decides
    let e = refusal(&listed_and_split("& card(U) = 4"));
    assert!(e.contains("a partition of U into 3 parts"), "{e}");
}

#[test]
fn a_bijection_from_a_partitioned_set_is_fixed_by_its_other_set() {
    // A = B \/ C, f : A >->> D (A, D of 2 elements): f fixed by
    // permuting D, A's partition allocated in order: B of 0, 1 or 2
    // elements (the orbits of the 4 partitions under A's 2
    // permutations), so 3 solutions: root + 3 + 3 states, 3 + 3 edges
    for space in ["A >->> D", "D >->> A"] {
        let (s, t) = count(&format!(
            "MACHINE P SETS A; D CONSTANTS B, C, f
             PROPERTIES A = B \\/ C & B /\\ C = {{}} & f : {space}
             VARIABLES x INITIALISATION x := 0 END"
        ));
        assert_eq!((s, t), (7, 6), "{space}");
    }
}
