//! Unit tests of an integer bounded below beyond `MAXINT` and not above
//! (`range_beyond`), on small machines whose counts are brute-forced here
//! over ProB's defaults (`MININT = -1`, `MAXINT = 3`).

use crate::tests::{count, first_error};

const MININT: i64 = -1;

/// An account between constants `lo` and `hi` satisfying `props`, its
/// balance starting at 0 and going up by one below `hi`.
fn account(props: &str) -> String {
    format!(
        "MACHINE M CONSTANTS lo, hi PROPERTIES {props}
         VARIABLES b INVARIANT b : lo..hi INITIALISATION b := 0
         OPERATIONS up = SELECT b < hi THEN b := b + 1 END END"
    )
}

/// (states with the root, transitions) of `account` for the constant
/// solutions `sols`.
fn explore(sols: &[(i64, i64)]) -> (usize, usize) {
    let (mut states, mut edges) = (1 + sols.len(), 2 * sols.len());
    for &(_, hi) in sols {
        states += hi as usize + 1;
        edges += hi as usize;
    }
    (states, edges)
}

#[test]
fn a_lower_bound_beyond_maxint_is_its_only_value() {
    // SimpleAccount's shape: hi = 11 only, lo in MININT..0
    let sols: Vec<_> = (MININT..=0).map(|l| (l, 11)).collect();
    assert_eq!(
        count(&account("lo < hi & lo <= 0 & hi > 10")),
        explore(&sols)
    );
    assert_eq!(
        count(&account("hi > 10 & lo <= 0 & hi > lo")),
        explore(&sols)
    );
}

#[test]
fn a_lower_bound_beyond_maxint_is_refused_where_partners_move_it() {
    for props in [
        // lo gets the domain 0..10 once hi = 11 is labelled first
        "lo : NATURAL & hi > 10 & lo < hi",
        // hi's least value follows lo (labelled first or not)
        "lo > 20 & lo <= 30 & hi > lo & hi > 10",
        // a hole at the edge
        "hi > 10 & hi /= 11 & lo = 0",
    ] {
        assert!(first_error(&account(props)).is_some(), "{props} accepted");
    }
}
