//! Unit tests of integers labelled members first, interval ends after
//! (`range_labelled`), on small machines whose counts are derived here
//! by hand from the rule with ProB's defaults (`MAXINT = 3`): a member
//! `x` of `0..m` with `x < m` takes `0..MAXINT`, then `m` takes
//! `x+1..max(x+1, MAXINT)`, where the declaration order (`m` first)
//! would give the box.

use super::range_pushed_tests::machine;
use crate::tests::{count, first_error};

const MAXINT: i64 = 3;

/// Per solution one constants state and one initialised state, plus the
/// root.
fn states(solutions: usize) -> (usize, usize) {
    (2 * solutions + 1, 2 * solutions)
}

/// The pairs `(x, m)`: `x` labelled in `lo..MAXINT`, then `m` from
/// `x + 1` (at least `min_m`) to `MAXINT`, or that single value beyond.
fn member_then_end(lo: i64, min_m: i64) -> Vec<(i64, i64)> {
    (lo..=MAXINT)
        .flat_map(|x| {
            let l = (x + 1).max(min_m);
            (l..=l.max(MAXINT)).map(move |m| (x, m))
        })
        .collect()
}

#[test]
fn the_member_of_an_interval_is_labelled_before_its_end() {
    let pairs = member_then_end(0, 0);
    // (3, 4) lies beyond the box: the declaration order would not give it
    assert!(pairs.contains(&(3, 4)));
    for names in ["m, x", "x, m"] {
        let props = "m : NATURAL & x : 0 .. m & x < m";
        assert_eq!(
            count(&machine(names, props)),
            states(pairs.len()),
            "{names}"
        );
    }
    // through a set defined as the interval (binary_search's myNAT)
    let props = "m : NATURAL & S = 0 .. m & x : S & x < m";
    assert_eq!(count(&machine("m, S, x", props)), states(pairs.len()));
}

#[test]
fn members_are_labelled_in_declaration_order_then_the_end() {
    // Bosch_mini1_m_3's shape: f in 0..3, r in f+1..max(f+1, 3), then
    // m from max(4, r): the single value 4
    let props = "m > 0 & r : 0 .. m & f : 0 .. m & f < r & m > 3";
    let n: usize = member_then_end(0, 0)
        .iter()
        .map(|&(_, r)| {
            let l = r.max(4);
            (l..=l.max(MAXINT)).count()
        })
        .sum();
    assert_eq!(count(&machine("f, m, r", props)), states(n));
}

#[test]
fn a_member_of_a_set_with_another_shape_is_enumerated_from_it() {
    // g : S with S = -m..m: g is not labelled with the group but takes
    // S's elements once m is known
    let props = "m : NATURAL & S = -m .. m & g : S & x : 0 .. m & x < m";
    let n: usize = member_then_end(0, 0)
        .iter()
        .map(|&(_, m)| (2 * m + 1) as usize)
        .sum();
    assert_eq!(count(&machine("g, m, S, x", props)), states(n));
}

#[test]
fn without_an_interval_end_the_group_is_not_labelled_here() {
    // x < y alone: whichever is labelled first pushes the other beyond
    // the box (range_pushed's refusal stands)
    let props = "x : NATURAL & y : NATURAL & x < y";
    assert!(first_error(&machine("x, y", props)).is_some());
    // a non-linear bound keeps the member out of the group
    let props = "m : NATURAL & x : 0 .. m * m & x < m";
    assert!(first_error(&machine("m, x", props)).is_some());
}
