//! Unit tests of `solve::errors_antitone` (a conjunct antitone in a
//! function built point by point prunes the search), on colourings of
//! cycles whose counts are worked out by hand.

use crate::tests::count;

/// `colour` picks any two-colouring `cc` of the cycle `1 -> 2 -> ... ->
/// n -> 1` (adjacent nodes differ), written with memberships in `cc` as
/// Rodin's translation writes it; `col` starts empty.
fn cycle(n: i64) -> String {
    format!(
        "MACHINE C SETS COL = {{red, green}}
         DEFINITIONS G == (%i.(i : 1..{m} | i + 1) \\/ {{{n} |-> 1}})
         VARIABLES col INVARIANT col : 1..{n} +-> COL
         INITIALISATION col := {{}}
         OPERATIONS colour = ANY cc WHERE cc : 1..{n} --> COL &
           !(n1, n2, c1, c2).(n1 : 1..{n} & n2 : 1..{n} & c1 : COL & c2 : COL &
             n1 |-> n2 : G & n1 |-> c1 : cc & n2 |-> c2 : cc => c1 /= c2)
         THEN col := cc END END",
        m = n - 1
    )
}

#[test]
fn an_even_cycle_has_two_colourings() {
    // 2^40 total functions, beyond the point-by-point search without
    // pruning; each node's colour is forced by its predecessor's: root,
    // col = {} and the 2 colourings; edges init, 2 from {} and 2 from
    // each colouring
    assert_eq!(count(&cycle(40)), (4, 7));
}

#[test]
fn an_odd_cycle_has_none() {
    // no colouring: colour is never enabled (root and col = {}, init)
    assert_eq!(count(&cycle(41)), (2, 1));
}
