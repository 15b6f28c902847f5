//! Unit tests of memberships `A : S` and `A /: S` with an integer on a
//! `+`/`-` chain of `A` (`range_member`), on small machines whose counts
//! are brute-forced here over ProB's default `MAXINT` (3).

use crate::tests::{count, first_error};

pub(super) const MAXINT: i64 = 3;

/// A machine with `x` (initially 1) and the operation `go(p)` guarded by
/// `guard`, setting `x := p`.
pub(super) fn machine(guard: &str) -> String {
    format!(
        "MACHINE M VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 1
         OPERATIONS go(p) = PRE {guard} THEN x := p END END"
    )
}

/// States (with the root) and transitions of `machine` when `ps(x)` are
/// the parameters enabled in state `x`.
pub(super) fn explore(ps: &dyn Fn(i64) -> Vec<i64>) -> (usize, usize) {
    let (mut seen, mut todo, mut edges) = (vec![1], vec![1], 1);
    while let Some(x) = todo.pop() {
        for p in ps(x) {
            edges += 1;
            if !seen.contains(&p) {
                seen.push(p);
                todo.push(p);
            }
        }
    }
    (seen.len() + 1, edges)
}

#[test]
fn a_member_on_a_chain_ranges_over_the_set_shifted() {
    // p + x : 2..7, p : NATURAL1: p in 2 - x..7 - x, at least 1 (7 is
    // beyond MAXINT: no clipping)
    let guard = "p : NATURAL1 & p + x : 2..7";
    let ps = |x: i64| (1..=7 - x).filter(|p| p + x >= 2).collect();
    assert_eq!(count(&machine(guard)), explore(&ps));
    // the chain the other way round: 10 - p : {4, 9}, p in {1, 6}
    let guard = "p : NATURAL & 10 - p : {4, 9}";
    assert_eq!(count(&machine(guard)), explore(&|_| vec![1, 6]));
}

#[test]
fn a_non_member_on_a_chain_is_clipped() {
    // p + x /: {3}: p in 1..MAXINT but 3 - x
    let guard = "p : NATURAL1 & p + x /: {3}";
    let ps = |x: i64| (1..=MAXINT).filter(|p| p + x != 3).collect();
    assert_eq!(count(&machine(guard)), explore(&ps));
    let guard = "p : NATURAL & p /: 1..2";
    let ps = |_| (0..=MAXINT).filter(|p| !(1..=2).contains(p)).collect();
    assert_eq!(count(&machine(guard)), explore(&ps));
}

#[test]
fn a_non_member_excluding_maxint_is_refused() {
    // ProB's domain {0} \/ 4.. has it enumerate 4 (ControlFlowR2, see
    // `range_tail_tests`); past a value cut beyond MAXINT (5 - x with
    // x = 1) the enumeration is not known
    let e = first_error(&machine("p : NATURAL & p /: 1..4")).expect("unsupported");
    assert!(e.contains("infinite domain"), "{e}");
    let e = first_error(&machine("p : NATURAL1 & p + x /: {5}")).expect("unsupported");
    assert!(e.contains("infinite domain"), "{e}");
}
