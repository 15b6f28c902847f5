//! Unit tests of `fast_comprehensions`: a costly comprehension that gives
//! an operation's parameters its candidates is remembered per values of
//! the identifiers it reads, never across them (counts by brute force).

use crate::tests::count;

/// `step(p)` with `p` from `{s | s : 0..mx & s mod 1000 = v & !t.(t :
/// 1..k => s + t > v)}` (thousands of points: one evaluation is slow, so
/// the set is remembered): the set differs with `v`, and a cache that
/// ignored `v` would reuse `v = 0`'s four candidates at `v = 1`.
#[test]
fn a_remembered_comprehension_is_keyed_by_the_state_it_reads() {
    let (mx, k, top) = (3000i64, 300i64, 3i64);
    let (s, t) = count(&format!(
        "MACHINE C CONSTANTS mx PROPERTIES mx = {mx}
         VARIABLES v INITIALISATION v := 0
         OPERATIONS step(p) = PRE p : {{s | s : 0..mx & s mod 1000 = v &
           !t.(t : 1..{k} => s + t > v)}} & v < {top} THEN v := v + 1 END END"
    ));
    // brute force: states root, constants, v = 0..top; edges: constants,
    // initialisation, and one per candidate p at each v < top
    let candidates = |v: i64| {
        (0..=mx)
            .filter(|s| s % 1000 == v && (1..=k).all(|t| s + t > v))
            .count()
    };
    let steps: usize = (0..top).map(candidates).sum();
    assert_eq!((s, t), (2 + (top as usize + 1), 2 + steps));
}
