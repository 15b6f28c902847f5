//! Unit tests of images through relations kept symbolic
//! (`range_image`), counted by brute force over the powers of two.

use crate::tests::{count, first_error};

/// A machine (one constants state) halving `xx` from `start` by operation `op`, whose
/// precondition is `yy : IMAGE` (`half` the infinite halving relation).
fn halving(start: i64, image: &str) -> String {
    format!(
        "MACHINE H ABSTRACT_CONSTANTS half
         PROPERTIES half = {{x, y | x : INTEGER & y + y = x}}
         VARIABLES xx INVARIANT xx : INTEGER INITIALISATION xx := {start}
         OPERATIONS op(yy) = PRE yy : {image} THEN xx := yy END END"
    )
}

/// The values halved from `start` while even, `start` included.
fn halves(start: i64) -> Vec<i64> {
    let mut out = vec![start];
    while out.last().is_some_and(|&x| x % 2 == 0 && x != 0) {
        out.push(out.last().unwrap() / 2);
    }
    out
}

#[test]
fn the_image_of_a_comprehension_is_solved_point_by_point() {
    // 24, 12, 6, 3 (3 is odd: no half) after the constants state; one
    // edge per halving, plus the setup and init edges
    let hs = halves(24);
    let expected = (hs.len() + 2, hs.len() - 1 + 2);
    assert_eq!(count(&halving(24, "half[{xx}]")), expected);
}

#[test]
fn the_image_of_a_closure_is_grown_until_closed() {
    // from each value, an edge to every later one (all reached)
    let hs = halves(24);
    let edges: usize = (0..hs.len()).map(|i| hs.len() - 1 - i).sum();
    let m = halving(24, "closure1(half)[{xx}]");
    assert_eq!(count(&m), (hs.len() + 2, edges + 2));
}

#[test]
fn a_closure_without_end_is_refused() {
    // closure1(inc)[{xx}] is every integer above xx
    let m = "MACHINE I ABSTRACT_CONSTANTS inc
             PROPERTIES inc = %x.(x : INTEGER | x + 1)
             VARIABLES xx INVARIANT xx : INTEGER INITIALISATION xx := 0
             OPERATIONS op(yy) = PRE yy : closure1(inc)[{xx}] THEN xx := yy END END";
    let e = first_error(m).expect("refused");
    assert!(e.contains("closure1"), "{e}");
}

#[test]
fn a_lambda_image_of_a_finite_set() {
    // inc[{1, 2}] = {2, 3}: the variable takes it once
    let m = "MACHINE L ABSTRACT_CONSTANTS inc
             PROPERTIES inc = %x.(x : INTEGER | x + 1)
             VARIABLES s INVARIANT s <: INTEGER INITIALISATION s := {}
             OPERATIONS op = PRE s = {} THEN s := inc[{1, 2}] END;
                        chk = PRE s = {2, 3} THEN skip END END";
    // constants, {}, {2, 3}; setup, init, op, chk loop
    assert_eq!(count(m), (4, 4));
}
