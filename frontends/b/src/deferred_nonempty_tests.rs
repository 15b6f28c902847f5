//! Unit tests of `setsize` on `S /= {}` for a deferred set `S`: true of
//! every deferred set, it keeps the size the other rules give. Counts
//! computed by hand.

use crate::tests::count;

#[test]
fn a_deferred_set_said_non_empty_keeps_its_size() {
    // default size 2: x :: S gives 2 states: root + 1 constants state + 2
    // states; 1 setup + 2 init edges. card(S) = 3: 3 states, 3 edges
    for (size, expected) in [("", (4, 3)), ("& card(S) = 3", (5, 4))] {
        let (s, t) = count(&format!(
            "MACHINE C SETS S CONSTANTS n PROPERTIES n = 1 & S /= {{}} {size}
             VARIABLES x INITIALISATION x :: S END"
        ));
        assert_eq!((s, t), expected, "{size}");
    }
}
