//! Tests of symbolic definitions whose binders hide a set element (see
//! `symbolic::Known`): `%(a, b).(..)` with `Sigma = {a, b, c}` is kept
//! symbolic, the bound values coming first where it is applied. Small
//! machines whose counts are computed by hand.

use crate::tests::count;

#[test]
fn a_lambda_binding_set_element_names_is_applied() {
    // cat({[a]}, {[b], [c]}) = {[a, b], [a, c]}: chk fires once.
    // States: root, constants, v; transitions: setup, init, chk
    let m = "MACHINE L SETS Sigma = {a, b, c} CONSTANTS cat
             PROPERTIES cat = %(a, b).(a <: seq(Sigma) & b <: seq(Sigma)
                 | {c | #(x, y).(x : a & y : b & c = x ^ y)})
             VARIABLES v INVARIANT v : POW(seq(Sigma))
             INITIALISATION v := cat({[a]}, {[b], [c]})
             OPERATIONS chk = SELECT v = {[a, b], [a, c]} THEN skip END END";
    assert_eq!(count(m), (3, 3));
}
