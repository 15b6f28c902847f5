//! Constants ProB enumerates by clipping an infinite integer domain to
//! `MININT..MAXINT` (here `MAXINT = 3`), in the shapes of Event-B contexts
//! (Frappier_HL3's `Ttds = minTTD..maxTTD` over two `NATURAL1` bounds,
//! OLSR's `tc_sqn : Tc --> NATURAL` with `tc_sqn(tc) > 0`), written as
//! classical B machines; counts by hand (the root state counted).

use crate::tests::{count, first_error};

const VAR: &str = "VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END";

#[test]
fn an_interval_of_two_clipped_bounds_is_no_obstacle() {
    // lo <= hi in 1..3: 6 pairs, each a constants state and an initialised
    // one: 12 states and 12 transitions, and the root
    let m = format!(
        "MACHINE F CONSTANTS lo, hi, ts
         PROPERTIES lo : NATURAL1 & hi : NATURAL1 & lo <= hi & ts = lo..hi {VAR}"
    );
    assert_eq!(count(&m), (13, 12));
}

#[test]
fn an_interval_used_elsewhere_stops_the_clipping() {
    // 2 : ts bounds lo and hi through ts: left unsupported
    let m = format!(
        "MACHINE F CONSTANTS lo, hi, ts
         PROPERTIES lo : NATURAL1 & hi : NATURAL1 & lo <= hi & ts = lo..hi & 2 : ts {VAR}"
    );
    let e = first_error(&m).expect("undecided");
    assert!(e.contains("unsupported"), "{e}");
}

#[test]
fn a_pointwise_lower_bound_narrows_the_clipped_function() {
    // f(a), f(b) in 1..3: 9 functions, 18 states and transitions, the root
    let m = format!(
        "MACHINE O SETS S = {{a, b}} CONSTANTS f
         PROPERTIES f : S --> NATURAL & !x.(x : S => f(x) > 0) {VAR}"
    );
    assert_eq!(count(&m), (19, 18));
    // f(x) /= 1: 0, 2 or 3 at each point
    let m = format!(
        "MACHINE O SETS S = {{a, b}} CONSTANTS f
         PROPERTIES f : S --> NATURAL & !x.(x : S => 1 /= f(x)) {VAR}"
    );
    assert_eq!(count(&m), (19, 18));
}

#[test]
fn a_pointwise_bound_beyond_maxint_is_unsupported() {
    // ProB would enumerate 5..: not the clipped range
    let m = format!(
        "MACHINE O SETS S = {{a, b}} CONSTANTS f
         PROPERTIES f : S --> NATURAL & !x.(x : S => f(x) >= 5) {VAR}"
    );
    let e = first_error(&m).expect("undecided");
    assert!(e.contains("pointwise bound outside MININT..MAXINT"), "{e}");
}
