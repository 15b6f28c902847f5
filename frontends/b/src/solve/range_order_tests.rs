//! Unit tests of the declaration order deciding whether integers clipped
//! together keep the box (`range_pushed::tops_out`): a candidate pushing
//! a partner declared later beyond `MININT..MAXINT` is refused; accepted
//! counts are brute-forced here over ProB's defaults (`-1..3`).

use super::range_pushed_tests::machine;
use crate::tests::{count, first_error};

const MININT: i64 = -1;
const MAXINT: i64 = 3;

/// The solutions `(x, y)` of `keep` over the box, per solution one
/// constants state and one initialised state, plus the root.
fn boxed(keep: impl Fn(i64, i64) -> bool) -> (usize, usize) {
    let all = || MININT..=MAXINT;
    let n = all()
        .flat_map(|x| all().map(move |y| (x, y)))
        .filter(|&(x, y)| keep(x, y))
        .count();
    (2 * n + 1, 2 * n)
}

#[test]
fn a_strict_comparison_of_unbounded_integers_is_refused_either_way() {
    // labelled first, x = MAXINT has y in MAXINT+1..sup (or y = MININT
    // has x in inf..MININT-1): a solution outside the box either way
    let props = "x : INTEGER & y : INTEGER & x < y";
    for names in ["x, y", "y, x"] {
        assert!(first_error(&machine(names, props)).is_some(), "{names}");
    }
}

#[test]
fn the_partner_declared_first_is_labelled_first() {
    // CrsCtl's Tmin > 0 & Tmin < Tmax: Tmax (in 2..sup) labelled first
    // in 2..MAXINT, then Tmin below it: the box
    let props = "x > 0 & x < y";
    assert_eq!(count(&machine("y, x", props)), boxed(|x, y| x > 0 && x < y));
    // x first: x = MAXINT has y = MAXINT + 1, outside the box
    assert!(first_error(&machine("x, y", props)).is_some());
}

#[test]
fn a_comparison_staying_inside_the_box_is_clipped_either_way() {
    // x = MAXINT leaves y in MAXINT..sup: MAXINT alone
    let props = "x : NATURAL1 & y : NATURAL1 & x <= y";
    let want = boxed(|x, y| x >= 1 && y >= 1 && x <= y);
    for names in ["x, y", "y, x"] {
        assert_eq!(count(&machine(names, props)), want, "{names}");
    }
    // y's own upper bound keeps x below MAXINT: x < y pushes nothing out
    let props = "x : INTEGER & y : INTEGER & x < y & y < 2";
    assert_eq!(count(&machine("x, y", props)), boxed(|x, y| x < y && y < 2));
}
