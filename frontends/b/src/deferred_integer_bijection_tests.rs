//! Unit tests of `deferred_integer_bijection` (`f : S >->> INTEGER` sizes
//! `S` as `MININT..MAXINT` and is fixed up to `S`'s symmetry), on small
//! machines whose counts are computed by hand.

use crate::tests::count;
use crate::tests_setsize::refusal;

#[test]
fn a_bijection_onto_integer_sizes_its_deferred_set() {
    // MININT..MAXINT = -1..3: S of 5 elements, f fixed; x free over S
    // (the bijection takes S's symmetry): 5 solutions, root + 5 + 5
    // states, 5 + 5 edges
    let m = "MACHINE K SETS S CONSTANTS f, x PROPERTIES f : S >->> INTEGER & x : S
             VARIABLES v INITIALISATION v := 0 END";
    assert_eq!(count(m), (11, 10));
    // with MAXINT = 1: S of 3 elements, 3 solutions
    let m = "MACHINE K DEFINITIONS SET_PREF_MAXINT == 1
             SETS S CONSTANTS f, x PROPERTIES f : S >->> INTEGER & x : S
             VARIABLES v INITIALISATION v := 0 END";
    assert_eq!(count(m), (7, 6));
}

#[test]
fn a_bijection_onto_integer_beside_a_size_stays_refused() {
    let e = refusal(
        "MACHINE K SETS S CONSTANTS f PROPERTIES f : S >->> INTEGER & card(S) = 5
         VARIABLES v INITIALISATION v := 0 END",
    );
    assert!(e.contains("a bijection over a deferred set"), "{e}");
}
