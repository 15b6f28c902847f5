//! Unit tests of holes at a clipped edge (`range_holes`): `x /= E`,
//! `x /= y` and `x : NATURAL - {..}` on small machines whose counts are
//! brute-forced here over ProB's default `MAXINT` (3); the machine and
//! its exploration are `range_member_tests`'.

use super::range_member_tests::{explore, machine, MAXINT};
use crate::tests::{count, first_error};

#[test]
fn a_hole_inside_the_box_is_checked() {
    let guard = "p : NATURAL & p /= 2";
    let ps = |_| (0..=MAXINT).filter(|&p| p != 2).collect();
    assert_eq!(count(&machine(guard)), explore(&ps));
    // the hole moves with the state: x /= p refused once x reaches MAXINT
    assert!(first_error(&machine("p : NATURAL & x /= p")).is_some());
    let guard = "p : NATURAL & p <= 2 & x /= p";
    let ps = |x: i64| (0..=2).filter(|&p| p != x).collect();
    assert_eq!(count(&machine(guard)), explore(&ps));
}

#[test]
fn a_hole_at_a_clipped_edge_is_refused() {
    // ProB's domain 0..2 \/ 4.. has it enumerate 4 beyond MAXINT (see
    // `range_tail_tests`); how far past a hole beyond MAXINT, or below
    // MININT, is not known
    for guard in [
        "p : NATURAL & p /= 3 & p /= 5",
        "p : NATURAL & 3 /= p",
        "p : INTEGER & p /= -1",
        "p : NATURAL - {4}",
        "p : NATURAL & q : NATURAL & p /= q",
        "p : NATURAL & q : NATURAL & q /= p",
    ] {
        // refused (`3 /= p` already for want of a finite range)
        assert!(first_error(&machine(guard)).is_some(), "{guard} accepted");
    }
    // a bounded side is not clipped: -1 is excluded inside 0..
    let guard = "p : NATURAL & p /= -1";
    let ps = |_| (0..=MAXINT).collect();
    assert_eq!(count(&machine(guard)), explore(&ps));
}
