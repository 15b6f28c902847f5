//! Tests of when a set former `UNION(x).(P | {E})` (Event-B's
//! `{x . P | E}`) is infinite (see `symbolic_setformer`): kept symbolic
//! and applied point by point when a bound variable has no finite range,
//! computed as a value when every one has (a typing `x : INTEGER` beside
//! `x : 0..3`). Small machines whose counts are computed by hand.

use crate::tests::count;

#[test]
fn an_infinite_set_former_is_applied_point_by_point() {
    // f doubles every natural: v = 3 -> 6 -> 12 (12 < 10 fails).
    // States: root, constants, v = 6, v = 12; transitions: setup, init,
    // step from 6
    let m = "MACHINE A CONSTANTS f
             PROPERTIES f = UNION(x).(x : NATURAL | {x |-> 2 * x})
             VARIABLES v INVARIANT v : NATURAL INITIALISATION v := f(3)
             OPERATIONS step = PRE v < 10 THEN v := f(v) END END";
    assert_eq!(count(m), (4, 3));
}

#[test]
fn a_set_former_with_a_finite_range_is_a_value() {
    // x : INTEGER only types x; x : 0..3 bounds it: f = {0|->0, .., 3|->6},
    // card 4, so the PROPERTIES hold. States: root, constants, v = 0 and
    // v = 6 (f(3)); transitions: setup, init (v := f(0)), set(3) and
    // set(0) from each of the 2 states
    let m = "MACHINE B CONSTANTS f
             PROPERTIES f = UNION(x).(x : INTEGER & x : 0..3 | {x |-> 2 * x}) & card(f) = 4
             VARIABLES v INVARIANT v : INTEGER INITIALISATION v := f(0)
             OPERATIONS set(a) = PRE a : {0, 3} THEN v := f(a) END END";
    assert_eq!(count(m), (4, 6));
}

#[test]
fn a_set_former_over_a_pair_of_a_finite_set_is_a_value() {
    // (x |-> y) : (0..1) * (0..1) ranges both: g has 4 pairs, sum 0+1+1+2
    let m = "MACHINE C CONSTANTS g
             PROPERTIES g = UNION(x, y).(x : INTEGER & y : INTEGER & (x |-> y) : (0..1) * (0..1)
                 | {(x |-> y) |-> x + y}) & card(g) = 4
             VARIABLES s INVARIANT s : INTEGER INITIALISATION s := SIGMA(p).(p : dom(g) | g(p)) END";
    assert_eq!(count(m), (3, 2));
}
