//! Unit tests of integers clipped together (`range_group`): comparisons
//! and divisibility between identifiers without a finite range, on small
//! machines whose counts are brute-forced here over ProB's default
//! `MININT..MAXINT` (-1..3).

use crate::tests::{count, first_error};

const MININT: i64 = -1;
const MAXINT: i64 = 3;

/// A machine whose constants `b`, `m`, `t` satisfy `props`, with one
/// variable initialised to 0 and no operation.
fn constants(props: &str) -> String {
    format!(
        "MACHINE G CONSTANTS b, m, t PROPERTIES {props}
         VARIABLES v INVARIANT v : INTEGER INITIALISATION v := 0 END"
    )
}

/// The states and transitions of `constants` for `n` solutions: one
/// constants state and one initialised state each, plus the root.
fn expected(n: usize) -> (usize, usize) {
    (2 * n + 1, 2 * n)
}

#[test]
fn a_divisibility_between_clipped_constants_keeps_the_box() {
    let props = "b : NATURAL1 & m : NATURAL1 & m mod b = 0 & t : NATURAL1 & t <= m";
    let box1 = || 1..=MAXINT;
    let n = box1()
        .flat_map(|b| box1().flat_map(move |m| box1().map(move |t| (b, m, t))))
        .filter(|&(b, m, t)| m % b == 0 && t <= m)
        .count();
    assert_eq!(count(&constants(props)), expected(n));
    // the divisor first or the dividend first, the same solutions
    let props = "0 = m mod b & t <= m & t : NATURAL1 & m : NATURAL1 & b : NATURAL1";
    assert_eq!(count(&constants(props)), expected(n));
}

#[test]
fn a_divisor_that_may_be_negative_is_refused() {
    // `b : INTEGER`: with `m` labelled first, ProB's propagation finds
    // `b = -m`, outside the box
    let props = "b : INTEGER & m : NATURAL1 & m mod b = 0 & t = 0";
    let e = first_error(&constants(props)).expect("unsupported");
    assert!(e.contains("cannot enumerate"), "{e}");
    // a dividend that may be negative: refused too
    let props = "b : NATURAL1 & m : INTEGER & m mod b = 0 & t = 0";
    let e = first_error(&constants(props)).expect("unsupported");
    assert!(e.contains("cannot enumerate"), "{e}");
}

#[test]
fn a_chain_of_comparisons_is_clipped_as_a_group() {
    // b <= m, m < t <= MAXINT, clipped below: the ordered triples inside
    // the box (labelled in the order declared, each stays inside it)
    let props = "b : INTEGER & m : INTEGER & t : INTEGER & b <= m & m < t & t <= 3";
    let all = || MININT..=MAXINT;
    let n = all()
        .flat_map(|b| all().flat_map(move |m| all().map(move |t| (b, m, t))))
        .filter(|&(b, m, t)| b <= m && m < t)
        .count();
    assert_eq!(count(&constants(props)), expected(n));
    // without t's bound, m = MAXINT labelled first has t = MAXINT + 1
    let props = "b : INTEGER & m : INTEGER & t : INTEGER & b <= m & m < t";
    assert!(first_error(&constants(props)).is_some());
    // `t = m + 1` ties two of them: which ProB labels first matters
    let props = "b : INTEGER & m : INTEGER & t : INTEGER & b <= m & t = m + 1";
    assert!(first_error(&constants(props)).is_some());
}

#[test]
fn an_even_parameter_ranges_over_the_clipped_naturals() {
    // p : NATURAL & p mod 2 = 0: p in {0, 2}; from each of the 2 states
    // (x = 0 initially) 2 set edges, plus the init edge
    let m = "MACHINE P VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 0
             OPERATIONS set(p) = PRE p : NATURAL & p mod 2 = 0 THEN x := p END END";
    let n = (0..=MAXINT).filter(|p| p % 2 == 0).count();
    assert_eq!(count(m), (n + 1, 1 + n * n));
}

#[test]
fn an_unused_definition_between_partners_keeps_the_box() {
    // Frappier's M0 shape: `t = b..m` mentioned nowhere else
    let props = "b : NATURAL1 & m : NATURAL1 & b <= m & t = b..m";
    let box1 = || 1..=MAXINT;
    let n = box1()
        .flat_map(|b| box1().map(move |m| (b, m)))
        .filter(|&(b, m)| b <= m)
        .count();
    assert_eq!(count(&constants(props)), expected(n));
}

#[test]
fn a_used_definition_between_partners_stops_the_box() {
    // `5 : t` bounds `m` through `t`: left unsupported
    let props = "b : NATURAL1 & m : NATURAL1 & b <= m & t = b..m & 5 : t";
    let e = first_error(&constants(props)).expect("undecided");
    assert!(e.contains("cannot enumerate"), "{e}");
}
