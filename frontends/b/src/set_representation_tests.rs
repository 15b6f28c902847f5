//! Unit tests of the explicit sets ProB computes from a large set it keeps
//! symbolic (see `set_representation`): small machines whose counts are
//! computed by hand, the closure and the explicit set being two states.

use crate::tests::{count, first_error};

#[test]
fn a_union_with_a_listed_set_is_a_second_state() {
    // root, x = {}, x = 1..10000 (closure), x = the same set explicit
    // (add1 from the closure; add1 again leaves it): init 1, from {} fill
    // 1, from each of the two full states fill 1 + add1 1
    let (s, t) = count(
        "MACHINE W VARIABLES x INITIALISATION x := {}
         OPERATIONS fill = BEGIN x := 1..10000 END;
           add1 = SELECT x /= {} THEN x := x \\/ {1} END END",
    );
    assert_eq!((s, t), (4, 6));
}

#[test]
fn a_difference_from_a_listed_set_is_explicit() {
    // as above with x - {0} (no element removed) and {2} \/ x
    let (s, t) = count(
        "MACHINE D VARIABLES x INITIALISATION x := {}
         OPERATIONS fill = BEGIN x := 1..10000 END;
           sub = SELECT x /= {} THEN x := x - {0} END;
           add = SELECT x /= {} THEN x := {2} \\/ x END END",
    );
    // from each full state: fill, sub, add (3 edges); from {}: fill
    assert_eq!((s, t), (4, 1 + 1 + 3 + 3));
}

// A union with a variable (not a set extension) stays refused: tests_lazy's
// `a_state_reached_with_a_set_computed_in_two_ways_is_refused`.

#[test]
fn a_variable_also_assigned_otherwise_keeps_its_origin() {
    // `x` assigned by a union with a listed set and by a WHILE-free
    // `::` in one operation: not taken as explicit, so refused as before
    let e = first_error(
        "MACHINE M VARIABLES x, b INITIALISATION x := {} || b := FALSE
         OPERATIONS fill = BEGIN x := 1..10000 END;
           mix = SELECT x /= {} THEN
             IF b = TRUE THEN x :: {1..10000} ELSE x := x \\/ {1} END || b := bool(b = FALSE)
           END END",
    )
    .expect("refused");
    assert!(e.contains("computed in two ways"), "{e}");
}
