//! Unit tests of universals over an infinite integer domain
//! (`range_forall`, `range_interval`): constants filtered by such a
//! universal, counts brute-forced here.

use crate::tests::{count, first_error};

/// A machine whose constant `c : 0..3` satisfies `prop`: (states with
/// the root, transitions) for `n` solutions is (2n + 1, 2n).
fn machine(prop: &str) -> String {
    format!("MACHINE M CONSTANTS c PROPERTIES c : 0..3 & {prop} END")
}

fn expected(n: usize) -> (usize, usize) {
    (2 * n + 1, 2 * n)
}

#[test]
fn a_universal_proved_by_intervals() {
    let prop = "!x.(x : NATURAL => 2 * ((x * x) / 2) : NATURAL)";
    assert_eq!(count(&machine(prop)), expected(4));
    let prop = "!x.(x : NATURAL1 => x * c + 1 > 0)";
    assert_eq!(count(&machine(prop)), expected(4));
    // not provable by intervals (x * x over INTEGER): refused
    let prop = "!x.(x : INTEGER => x * x >= 0)";
    assert!(first_error(&machine(prop)).is_some());
}

#[test]
fn a_universal_decided_over_its_counterexamples() {
    // false only where y : 1..c: 4 mod y = 0 for every y in 1..c
    let prop = "!y.(y : INTEGER => (y : 1..c => 4 mod y = 0))";
    let n = (0..=3i64).filter(|&c| (1..=c).all(|y| 4 % y == 0)).count();
    assert_eq!(count(&machine(prop)), expected(n));
    // false only where y /: .. fails: y in c..c + 1
    let prop = "!y.(y : NATURAL => y /: c..c + 1 or y * y <= 4)";
    let n = (0..=3i64)
        .filter(|&c| (c..=c + 1).all(|y| y * y <= 4))
        .count();
    assert_eq!(count(&machine(prop)), expected(n));
}
