//! Unit tests of partners pushing a clipped integer out of the box
//! (`range_pushed`), on small machines whose accepted counts are
//! brute-forced here over ProB's defaults (`MININT = -1`, `MAXINT = 3`).

use crate::tests::{count, first_error};

const MININT: i64 = -1;
const MAXINT: i64 = 3;

/// A machine whose constants `names` satisfy `props`, with one variable
/// initialised to 0 and no operation: per solution one constants state
/// and one initialised state.
pub(super) fn machine(names: &str, props: &str) -> String {
    format!(
        "MACHINE P CONSTANTS {names} PROPERTIES {props}
         VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END"
    )
}

fn constants(props: &str) -> String {
    machine("lo, hi", props)
}

#[test]
fn a_partner_beyond_maxint_is_refused_whichever_is_labelled_first() {
    for props in [
        // ProB: lo in 12..sup, enumerated from 12; the box has nothing
        "lo : INTEGER & hi : INTEGER & hi > 10 & hi < lo",
        "hi > 10 & hi < lo",
        "lo : INTEGER & hi : INTEGER & hi < lo & hi > 2",
        "hi : INTEGER & lo : INTEGER & lo > hi & hi >= 3",
        // the mirror: hi in inf..-7
        "lo : INTEGER & hi : INTEGER & lo < -5 & hi < lo",
        "hi : INTEGER & lo : INTEGER & lo <= -2 & lo >= hi",
    ] {
        assert!(first_error(&constants(props)).is_some(), "{props} accepted");
    }
}

#[test]
fn a_push_through_a_chain_of_partners_is_refused() {
    for props in [
        // ProB: b in 3..sup, c in 4..sup, enumerated from 4
        "a : INTEGER & b : INTEGER & c : INTEGER & a >= 2 & b > a & c > b",
        "c : INTEGER & b : INTEGER & a : INTEGER & c > b & b > a & a >= 2",
        // the mirror: a in inf..-2
        "a : INTEGER & b : INTEGER & c : INTEGER & c <= 0 & b < c & a < b",
    ] {
        assert!(
            first_error(&machine("a, b, c", props)).is_some(),
            "{props} accepted"
        );
    }
}

#[test]
fn a_partner_inside_the_box_keeps_the_box() {
    // lo's domain after propagation is 2..sup: clipped to 2..MAXINT
    let props = "lo : INTEGER & hi : INTEGER & hi > 0 & hi < lo";
    let all = || MININT..=MAXINT;
    let n = all()
        .flat_map(|lo| all().map(move |hi| (lo, hi)))
        .filter(|&(lo, hi)| hi > 0 && hi < lo)
        .count();
    assert_eq!(count(&constants(props)), (2 * n + 1, 2 * n));
    // a partner's own bound that leaves no solution at all (not a clip)
    let props = "lo : INTEGER & hi : INTEGER & hi > 10 & hi < lo & lo < 2";
    assert_eq!(count(&constants(props)), (1, 0));
}
