//! Unit tests of `solve::errors_recurrence` (a total function fixed
//! point by point by a recurrence, and ProB's CLP(FD) overflow on its
//! values), on small machines whose counts are worked out by hand.

use crate::tests::{count, first_error};
use crate::tests_wd::model_error;

/// `f : 0..top --> range` with `f(0) = 1` and `f(x) = step` for
/// `x : 1..top` (`step` reading `x` and `f`); `v` starts at `f(top)` and
/// `pick(p)` sets it to `f(p)`.
fn machine_into(range: &str, top: i64, step: &str) -> String {
    format!(
        "MACHINE R CONSTANTS f
         PROPERTIES f : 0..{top} --> {range} & f(0) = 1 &
           !x.(x : 1..{top} => f(x) = {step})
         VARIABLES v INVARIANT v : NATURAL INITIALISATION v := f({top})
         OPERATIONS pick(p) = PRE p : 0..{top} THEN v := f(p) END END"
    )
}

/// `machine_into` with the range `NATURAL`.
fn machine(top: i64, step: &str) -> String {
    machine_into("NATURAL", top, step)
}

#[test]
fn a_recurrence_fixes_every_point_in_the_domains_order() {
    // f = {0 |-> 1, 1 |-> 2, 2 |-> 4, 3 |-> 8, 4 |-> 16}: states root,
    // constants and v in {1, 2, 4, 8, 16}; edges setup, init and 5 picks
    // from each of the 5 values of v
    assert_eq!(count(&machine(4, "2 * f(x - 1)")), (7, 27));
    // two earlier points (Fibonacci-like, f(1) read from f(0) and f(-1)
    // outside the domain is not read: x - 2 only from x = 2)
    let fib = "MACHINE R CONSTANTS f
         PROPERTIES f : 0..4 --> NATURAL & f(0) = 1 & f(1) = 1 &
           !x.(x : 2..4 => f(x) = f(x - 1) + f(x - 2))
         VARIABLES v INVARIANT v : NATURAL INITIALISATION v := f(4)
         OPERATIONS pick(p) = PRE p : 0..4 THEN v := f(p) END END";
    // f = 1, 1, 2, 3, 5: v in {1, 2, 3, 5}; 5 picks from each
    assert_eq!(count(fib), (6, 22));
}

#[test]
fn a_value_beyond_64_bits_is_probs_overflow() {
    // 2^63 at x = 63 is beyond 64 bits (ProB's solver overflows before)
    let e = model_error(&machine(70, "2 * f(x - 1)"));
    assert!(
        e.contains("CLPFD_integer_overflow") && e.contains("t.mch:3:"),
        "{e}"
    );
}

#[test]
fn a_value_near_the_solver_bound_is_unsupported() {
    // 2^61 is within 64 bits but beyond ProB's CLP(FD) integers or not,
    // as their exact bound decides
    let e = first_error(&machine(61, "2 * f(x - 1)")).expect("refused");
    assert!(
        e.starts_with(pins::UNSUPPORTED_PREFIX) && e.contains("2^60"),
        "{e}"
    );
    // 2^59 is within both
    let e = first_error(&machine(59, "2 * f(x - 1)"));
    assert!(e.is_none(), "{e:?}");
}

#[test]
fn into_integer_prob_computes_without_bound() {
    // ProB's unbounded integers: 2^61 is exact, a count (v in 2^0..2^61:
    // 62 values, 62 picks from each, plus root, constants, setup, init)
    assert_eq!(
        count(&machine_into("INTEGER", 61, "2 * f(x - 1)")),
        (64, 2 + 62 * 62)
    );
    // beyond 64 bits: no error of ProB's, and beyond our integers
    let e = first_error(&machine_into("INTEGER", 70, "2 * f(x - 1)")).expect("refused");
    assert!(e.starts_with(pins::UNSUPPORTED_PREFIX), "{e}");
}
