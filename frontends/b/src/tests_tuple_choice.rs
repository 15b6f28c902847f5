//! Tests of `x, y :: S` (a tuple of S chosen, its components assigned in
//! order) and of the loop of WhileAssignTupleChoose, whose INVARIANT
//! types its results before the first iteration assigns them.

use crate::tests::count;

#[test]
fn becomes_element_of_a_set_of_pairs() {
    // states (0,0), (1,2), (3,4): root + 3; the initialisation + 2 each
    let (s, t) = count(
        "MACHINE P VARIABLES a, b INITIALISATION a, b := 0, 0
         OPERATIONS pick = BEGIN a, b :: {(1|->2), (3|->4)} END END",
    );
    assert_eq!((s, t), (4, 7));
}

#[test]
fn becomes_element_of_a_set_of_triples_in_order() {
    // ok is enabled only where a, b, c = 1, 2, 3: root + 2 states; the
    // initialisation, pick from both states, ok from the second
    let (s, t) = count(
        "MACHINE P VARIABLES a, b, c INITIALISATION a, b, c := 0, 0, 0
         OPERATIONS pick = BEGIN a, b, c :: {(1|->2|->3)} END;
                    ok = SELECT a = 1 & b = 2 & c = 3 THEN skip END END",
    );
    assert_eq!((s, t), (3, 4));
}

#[test]
fn a_loop_typing_its_unassigned_results() {
    // Count empties xx = {1|->2} in one step, its results 1 and 2; from
    // xx = {} the loop does not run: states root, the initial one and
    // xx = {}; the initialisation and Count from both
    let (s, t) = count(
        "MACHINE W VARIABLES xx INVARIANT xx : INTEGER <-> INTEGER
         INITIALISATION xx := {1|->2}
         OPERATIONS p1, p2 <-- Count = WHILE xx /= {} DO
             p1, p2 :: xx; xx := xx - {p1|->p2}
             INVARIANT p1 : INTEGER & p2 : INTEGER VARIANT card(xx) END END",
    );
    assert_eq!((s, t), (3, 3));
}
