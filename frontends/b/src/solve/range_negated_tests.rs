//! Unit tests of negated inclusions of intervals giving no domain
//! (`range_negated`): integers and functions into `NATURAL` mentioned
//! only by such a conjunct are clipped to ProB's box (`0..MAXINT` with
//! the default `MAXINT = 3`), the conjunct checked on each candidate;
//! the accepted counts are brute-forced here.

use super::range_pushed_tests::machine;
use crate::tests::{count, first_error};

const MAXINT: i64 = 3;

/// Per solution one constants state and one initialised state, plus the
/// root.
fn states(solutions: usize) -> (usize, usize) {
    (2 * solutions + 1, 2 * solutions)
}

/// Whether `lo..hi` is included in `a..b`.
fn included(lo: i64, hi: i64, a: i64, b: i64) -> bool {
    lo > hi || (a <= lo && hi <= b)
}

#[test]
fn an_integer_mentioned_only_by_a_negated_interval_inclusion_is_clipped() {
    for (a, b) in [(5, 9), (1, 3), (0, 1)] {
        let props = format!("x : NATURAL & not(x .. x + 1 <: {a} .. {b})");
        let n = (0..=MAXINT).filter(|&x| !included(x, x + 1, a, b)).count();
        assert_eq!(count(&machine("x", &props)), states(n), "{props}");
        // the same written with /<:
        let props = format!("x : NATURAL & x .. x + 1 /<: {a} .. {b}");
        assert_eq!(count(&machine("x", &props)), states(n), "{props}");
    }
}

#[test]
fn functions_into_natural_under_a_negated_interval_inclusion_are_clipped() {
    // NotIntervalSol_v2's shape, smaller: f, g : {1, 2} --> NATURAL
    let props = "f : {1, 2} --> NATURAL & g : {1, 2} --> NATURAL
                 & not(f(2) - g(2) .. f(1) + 1 <: 2 .. 3)";
    let box_ = || 0..=MAXINT;
    let constrained = box_()
        .flat_map(|f1| box_().flat_map(move |f2| box_().map(move |g2| (f1, f2, g2))))
        .filter(|&(f1, f2, g2)| !included(f2 - g2, f1 + 1, 2, 3))
        .count();
    // g(1) is free over the box
    let n = constrained * box_().count();
    assert_eq!(count(&machine("f, g", props)), states(n));
}

#[test]
fn a_negated_comparison_still_bounds_and_is_refused() {
    // ProB pushes the negation inward: `x <= 5` is a bound beyond MAXINT
    assert!(first_error(&machine("x", "x : NATURAL & not(x > 5)")).is_some());
    // a negated inclusion of a set that is not an interval: not modelled
    let props = "x : NATURAL & not({x, x + 1} <: 1 .. 3)";
    assert!(first_error(&machine("x", props)).is_some());
}
